// scale_numeric.js — Week 5's exercises on real sizes (data):
//   w5-zero-bytes (numeric) how many more bytes a GPU sends per step with ZeRO-3 than with ZeRO-1 for a 7B model
//                           (core.stepCost's collectives, scale_setup.js); the usual mistake counts both of ZeRO-3's
//                           parameter all-gathers as extra, forgetting that ZeRO-1 all-gathers the updated parameters
//   w5-layout     (choice)  the 3-D layouts of OPT-30B on 8 × 8 GPUs (core.price3dLayouts, every row the planner's):
//                           every option's flag is a claim the tests evaluate on the core, so the flags cannot drift
//                           from the planner; no option or explanation quotes a number the planner computes
import { pick } from "../../../web/exercise/params.js";
import { layouts, planOf, zeroCommBytes } from "../scale_setup.js";

const PSI_7B = 7e9;
const extraBytes = (core, N) => zeroCommBytes(core, PSI_7B, 3, N) - zeroCommBytes(core, PSI_7B, 1, N);

export const zeroBytes = {
  id: "w5-zero-bytes",
  kind: "numeric",
  title: "What ZeRO-3 costs in bytes",
  params: (rng) => ({ N: pick(rng, [8, 16, 32, 64, 128, 256]) }),
  prompt: (p) => `<p>A 7-billion-parameter model trains with mixed-precision Adam on N = ${p.N} GPUs: bf16 parameters and
    gradients (2 bytes each), every collective a ring. With ZeRO-1 each step reduce-scatters the gradients and
    all-gathers the updated parameters; with ZeRO-3 (FSDP) no GPU keeps the whole parameters.</p>
    <p>How many more bytes does each GPU send per step with ZeRO-3 than with ZeRO-1? (A prefix is fine: <code>12 GB</code>.)</p>`,
  answer: (p, core) => extraBytes(core, p.N),
  // ZeRO-3's extra all-gather of the 2Ψ bytes of bf16 parameters on a ring: (N − 1)/N · 2Ψ
  oracle: (p) => ((p.N - 1) / p.N) * 2 * PSI_7B,
  exempt: { distinctParams: "Ψ stays 7B, the model the ZeRO section prices; N takes six values, 8 to 256" },
  tolerance: { rel: 0.005 },
  unit: "bytes",
  unitSymbol: "B",
  wrongAnswer: (p, core) => 2 * extraBytes(core, p.N),
  hints: [
    "List the collectives of one step. ZeRO-1: reduce-scatter of gradients, all-gather of parameters. ZeRO-3: ?",
    "ZeRO-3 all-gathers each layer's parameters before its forward and again before its backward, then reduce-scatters the gradients.",
    "A ring all-gather or reduce-scatter of n bytes sends (N − 1)/N · n bytes from each GPU; here n = 2Ψ.",
  ],
  solutionText: `<p>ZeRO-1 sends a reduce-scatter and an all-gather of 2Ψ bytes; ZeRO-3 two all-gathers and a reduce-scatter.
    The difference is one all-gather: (N − 1)/N · 2Ψ, about 14 GB for 7B — ZeRO-3 moves 1.5× the bytes of ZeRO-1 (and of
    plain data parallelism, whose all-reduce is the same reduce-scatter plus all-gather). Counting both of ZeRO-3's
    all-gathers as extra forgets that ZeRO-1 must all-gather the parameters it updated in shards.</p>`,
};

const row = (core, t, p, d, fields) => layouts(core, fields).rows.find((r) => r.t === t && r.p === p && r.d === d);
const fitting = (core, zero1 = false) => layouts(core).rows.filter((r) => planOf(r, zero1).fits);
const tensorOf = (rows) => rows.map((r) => r.replicated.time.tensor);

export const layoutChoice = {
  id: "w5-layout",
  kind: "choice",
  title: "A layout for 30B on 8 × 8",
  prompt: `<p>OPT-30B on 8 nodes × 8 GPUs, priced as in <a href="#design" data-ref></a> (batch 512 × 2048 tokens, micro-batch 1, 1F1B, 80 GB per
    GPU, no recomputation, no ZeRO unless stated). Use the widget above. Which statements are true? Choose every correct
    one.</p>`,
  options: [
    { text: "(t, p, d) = (1, 1, 64), pure data parallelism, fits in 80 GB per GPU.",
      claim: (core) => row(core, 1, 1, 64).replicated.fits, correct: false,
      why: "Every GPU holds the whole model's states, 16 bytes per parameter for 30 billion parameters: far beyond 80 GB." },
    { text: "(2, 2, 16) does not fit, but fits with ZeRO-1.",
      claim: (core) => !row(core, 2, 2, 16).replicated.fits && row(core, 2, 2, 16).zero1.fits, correct: true,
      why: "Replicated, each GPU keeps 12 bytes of Adam state for every parameter of its stage; ZeRO-1 shards those 12 " +
        "bytes over d = 16, which brings it under 80 GB (switch the optimizer state in the widget to see both)." },
    { text: "With ZeRO-1, the fastest layout that fits is one that does not fit without it.",
      claim: (core) => !layouts(core).bestZero1.replicated.fits, correct: true,
      why: "ZeRO-1 admits layouts with fewer pipeline stages and more data parallelism, and the fastest of them beats " +
        "every layout that fits without ZeRO: compare the starred rows with the switch on and off." },
    { text: "Every layout with t = 8 that fits spends more time in tensor collectives than every layout with t = 4 that fits.",
      claim: (core) => Math.min(...tensorOf(fitting(core).filter((r) => r.t === 8)))
        > Math.max(...tensorOf(fitting(core).filter((r) => r.t === 4))), correct: true,
      why: "With the 64 GPUs fixed, a larger t leaves fewer replicas and stages, so each tensor group runs more " +
        "micro-batches of more layers through its collectives: the tensor column grows with t." },
    { text: "The fastest layout that fits also has the smallest pipeline bubble of the layouts that fit.",
      claim: (core) => layouts(core).best.replicated.time.bubble === Math.min(...fitting(core).map((r) => r.replicated.time.bubble)),
      correct: false,
      why: "A layout with p = 1 has no pipeline and no bubble, but pays for it in tensor collectives or in memory; the " +
        "best layout accepts a small bubble." },
    { text: "Full recomputation makes the fastest fitting layout faster, because more layouts fit.",
      claim: (core) => layouts(core, { recomputation: "full" }).best.replicated.time.total
        < layouts(core).best.replicated.time.total, correct: false,
      why: "It reruns every layer's forward during the backward, a third more compute in every layout; it helps only " +
        "when nothing fits without it." },
  ],
  hints: [
    "Open the layouts widget: struck-through rows do not fit. Turn ZeRO-1 on and off and watch the starred row.",
    "Compare the tensor column of t = 4 and t = 8 rows.",
    "Three statements are true.",
  ],
  solutionText: `<p>True: (2, 4, 8) needs ZeRO-1; with ZeRO-1 the fastest fitting layout is one that needs it; every fitting
    t = 8 layout spends more on tensor collectives than every fitting t = 4 one. False: pure data parallelism needs 16 bytes
    per parameter on every GPU; the best layout is not the one with the smallest bubble (the bubble is one cost among
    several); full recomputation costs a third more compute. The design rule: fit first, keep t inside a node and no
    larger than needed, then spend the rest on p and d — and let ZeRO-1 buy the layouts memory would otherwise forbid.</p>`,
};
