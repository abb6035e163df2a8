// scale_numeric.js — Week 5's exercises on real sizes (data):
//   w5-zero-bytes (numeric) how many more bytes a GPU sends per step with ZeRO-3 than with ZeRO-1 for a 7B model
//                           (core.stepCost's collectives, scale_setup.js); the usual mistake counts both of ZeRO-3's
//                           parameter all-gathers as extra, forgetting that ZeRO-1 all-gathers the updated parameters
//   w5-layout     (choice)  the 3-D layouts of OPT-30B on 8 × 8 GPUs (core.price3dLayouts): every option's flag is a
//                           claim the tests evaluate on the core, so the flags cannot drift from the pricer
import { pick } from "../../../web/exercise/params.js";
import { layouts, zeroCommBytes } from "../scale_setup.js";

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
const fitting = (core) => layouts(core).rows.filter((r) => r.fits);

export const layoutChoice = {
  id: "w5-layout",
  kind: "choice",
  title: "A layout for 30B on 8 × 8",
  prompt: `<p>OPT-30B on 8 nodes × 8 GPUs, priced as in section 8 (batch 512 × 2048 tokens, micro-batch 1, 1F1B, 80 GB per
    GPU, no ZeRO unless stated). Use the widget above. Which statements are true? Choose every correct one.</p>`,
  options: [
    { text: "(t, p, d) = (1, 1, 64), pure data parallelism, fits in 80 GB per GPU.",
      claim: (core) => row(core, 1, 1, 64).fits, correct: false,
      why: "It holds 16 bytes per parameter for 30 billion parameters, about 560 GB, on every GPU." },
    { text: "(2, 4, 8) does not fit, but fits with ZeRO-1.",
      claim: (core) => !row(core, 2, 4, 8).fits && row(core, 2, 4, 8).fitsZero1, correct: true,
      why: "About 100 GB without ZeRO; sharding the 12 bytes of optimizer state over d = 8 brings it near 61 GB." },
    // Not "(4, 4, 4) is the fastest": (4, 8, 2) is < 1 ms behind on a 20.6 s step, a difference the model cannot
    // resolve (issue 25 §2). What the table can decide: the two are within 0.1% and one needs less memory.
    { text: "The two fastest layouts that fit (no ZeRO), (4, 4, 4) and (4, 8, 2), are within 0.1% of each other per step, " +
        "and (4, 8, 2) needs less memory per GPU.",
      claim: (core) => {
        const [a, b] = [...fitting(core)].sort((x, y) => x.step - y.step), key = (r) => `${r.t},${r.p},${r.d}`;
        const pair = new Set([key(a), key(b)]), r442 = row(core, 4, 4, 4), r482 = row(core, 4, 8, 2);
        return pair.has("4,4,4") && pair.has("4,8,2") && Math.abs(a.step - b.step) < 1e-3 * a.step &&
          r482.memoryBytes < r442.memoryBytes;
      }, correct: true,
      why: "20.6 s per step each, less than a millisecond apart, at 50 GB and 35 GB: the model cannot tell their speed " +
        "apart, so the one with room to spare is the safer choice." },
    { text: "Every layout with t = 8 that fits is slower than every layout with t = 4 that fits.",
      claim: (core) => Math.min(...fitting(core).filter((r) => r.t === 8).map((r) => r.step))
        > Math.max(...fitting(core).filter((r) => r.t === 4).map((r) => r.step)), correct: true,
      why: "At t = 8 the tensor all-reduces cost about 2.3 s a step against 0.94 s at t = 4; no saving on the other axes pays that back." },
    { text: "The fastest layout that fits also has the smallest pipeline bubble of the layouts that fit.",
      claim: (core) => layouts(core).best.bubble === Math.min(...fitting(core).map((r) => r.bubble)), correct: false,
      why: "(8, 1, 8) has no pipeline and no bubble, but pays for it in tensor all-reduces; the best layout accepts a small bubble." },
    { text: "Full recomputation makes the fastest fitting layout faster, because more layouts fit.",
      claim: (core) => layouts(core, { fullRecomputation: true }).best.step < layouts(core).best.step, correct: false,
      why: "It adds a third to the compute (27 s at best); it helps only when nothing fits without it." },
  ],
  hints: [
    "Open the layouts widget: struck-through rows do not fit. Turn ZeRO-1 on and off.",
    "Compare the tensor column of t = 4 and t = 8 rows.",
    "Three statements are true.",
  ],
  solutionText: `<p>True: (2, 4, 8) needs ZeRO-1; (4, 4, 4) and (4, 8, 2) tie within a millisecond and (4, 8, 2) needs
    less memory; every fitting t = 8 layout is slower
    than every fitting t = 4 one. False: pure data parallelism needs ~560 GB per GPU; the best layout is not the one with the
    smallest bubble (the bubble is one cost among four); full recomputation costs 4/3 of the compute. The design rule:
    fit first, keep t inside a node and no larger than needed, then spend the rest on p and d.</p>`,
};
