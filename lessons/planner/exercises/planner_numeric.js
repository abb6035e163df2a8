// planner_numeric.js — the planner page's exercises, each answered by core.planStep (dsml/planner.h) and each with
// the usual mistake as its wrongAnswer:
//   planner-smallest-p  the smallest p at t = 8 for which a model fits      (mistake: counting the fp16 weights only)
//   planner-mfu         the MFU of a published layout at micro-batch b, in %  (mistake: HFU, recomputation counted)
//   planner-faster      the step time of the faster of two layouts           (mistake: the slower one's)
//   planner-double-d    the MFU after doubling d at a fixed global batch     (mistake: "MFU does not change")
import { pick } from "../../../web/exercise/params.js";
import { formatCount, plural } from "../../../web/units.js";
import { plan, presets, table1Settings } from "../planner_setup.js";

// None has an `oracle`: each answer is the planner's whole model of a step (rooflines of every matmul, α–β
// collectives, Korthikanti's activations), which has no closed form to recompute in a line of JavaScript. The model
// is checked term by term in tests/core/test_planner.cpp (FLOPs against Narayanan's eq. 3, memory against
// Korthikanti's cases, collectives against the course's schedules) and against the published tables by bench/published_runs;
// tests/exercises/planner_exercises.test.mjs recomputes every answer by a second route (a search written out, MFU
// from its definition).
const NO_ORACLE = "the answer is the planner's whole step model (no closed form); test_planner.cpp checks it term by term";

// What the prompts of planner-smallest-p and planner-faster fix besides the layout: v = 1, c = e = 1, b = 1, no ZeRO,
// full recomputation, no sequence parallelism, the data-parallel all-reduce not overlapped, FlashAttention-2, BF16.
const SETTINGS = { v: 1, c: 1, e: 1, b: 1, zero: 0, recompute: "full", sp: false, overlap: false,
  attention: "flash-attention-2", precision: "bf16" };
const fitsAt = (core, s) => plan(core, { ...SETTINGS, ...s });
const candidatesP = (core, model, nodes) => {
  const layers = presets(core).models.find((m) => m.name === model).layers;
  return Array.from({ length: nodes }, (_, i) => i + 1).filter((p) => layers % p === 0 && nodes % p === 0);
};

export const smallestP = {
  id: "planner-smallest-p",
  kind: "numeric",
  title: "The smallest pipeline that fits",
  params: (rng) => ({ model: pick(rng, ["gpt3-175b", "gpt-145.6b", "gpt-310.1b", "llama2-70b"]),
    nodes: pick(rng, [32, 64]), B: pick(rng, [512, 1024]) }),
  prompt: (p) => `<p>Train <code>${p.model}</code> (its own sequence length) on ${formatCount(p.nodes)} nodes of 8
    A100-80GB with t = 8, v = 1, c = e = 1, micro-batch 1, global batch ${p.B}, full recomputation, no ZeRO, no
    sequence parallelism, FlashAttention-2, BF16; d is whatever GPUs are left (d = ${p.nodes * 8}/(8·p)). What is the smallest pipeline depth p (dividing the layers and the ${p.nodes}
    nodes) for which the first stage fits in the GPU's 80 GB, counting weights, gradients, Adam's state and the
    activations of its in-flight micro-batches?</p>`,
  answer: (p, core) => candidatesP(core, p.model, p.nodes).find((pp) => fitsAt(core, { model: p.model,
    gpu: "a100-80gb", nodes: p.nodes, t: 8, p: pp, B: p.B }).fits) ?? NaN,
  tolerance: { abs: 0.5 },
  unit: "stages",
  unitSymbol: "",
  wrongAnswer: (p, core) => candidatesP(core, p.model, p.nodes).find((pp) => {
    const r = fitsAt(core, { model: p.model, gpu: "a100-80gb", nodes: p.nodes, t: 8, p: pp, B: p.B });
    return r.memory.params <= r.capacity;   // the fp16 weights alone: 2 bytes of the 16 a parameter costs
  }),
  hints: [
    "Mixed-precision Adam keeps 16 bytes per parameter the GPU holds: fp16 weights and gradients, fp32 master, m and v.",
    "A GPU holds Ψ/(t·p) parameters, plus the first stage's activations: min(m, p) micro-batches of l/p layers under 1F1B.",
    "Try the divisors of the layers in order and stop at the first whose total stays under 80 GB (the widget shows the stacked bar).",
  ],
  solutionText: `<p>Each GPU holds 16·Ψ/(t·p) bytes of model state, so p must be large enough that this plus the
    activations stays under the capacity; with full recomputation the activations are small — each layer keeps only
    its input, 2·s·b·h bytes per micro-batch without sequence parallelism, plus one layer's activations rebuilt
    during its backward — so the model states decide. Counting only the fp16 weights (2 bytes a parameter) gives a p eight
    times too small — the optimizer state is what fills a GPU.</p>`,
  exempt: { oracle: NO_ORACLE },
};

// A Table 1 row (numbered from 1, as the widget numbers them) as “Load” sets it, then micro-batch b and v = 1.
const rowAt = (core, p) => ({ ...table1Settings(core, p.row - 1), b: p.b, v: 1 });

export const mfu = {
  id: "planner-mfu",
  kind: "numeric",
  title: "MFU of a published run",
  params: (rng) => ({ row: pick(rng, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), b: pick(rng, [1, 2, 4]) }),
  prompt: (p) => `<p>Load row ${p.row} of Table 1 (Narayanan et al. 2021, rows numbered from the smallest model, in
    <a href="#published">the published tables' widget</a>) into the planner with its “Load” button, then set the micro-batch to b = ${plural(p.b, "sequence")} and the chunks
    per GPU to v = 1 (leave every other control as the row set it). What model FLOPs utilisation does the planner give, in per cent? (PaLM's definition: (6Ψ + 12·l·h·s) FLOPs per token,
    divided by step time × GPUs × peak.)</p>`,
  answer: (p, core) => 100 * plan(core, rowAt(core, p)).mfu,
  tolerance: { rel: 0.02 },
  unit: "%",
  unitSymbol: "%",
  wrongAnswer: (p, core) => 100 * plan(core, rowAt(core, p)).hfu,
  hints: [
    "MFU counts the FLOPs the model needs, not the ones the GPUs ran: recomputation is not in it.",
    "Per token: 6Ψ for forward and backward of the weights, 12·l·h·s for attention's s×s products.",
    "The widget prints MFU and HFU side by side; with full recomputation HFU/MFU is about 4/3.",
  ],
  solutionText: `<p>MFU = tokens/s · (6Ψ + 12·l·h·s) / (GPUs · peak). Table 1's "achieved teraFLOP/s" counts the
    recomputed forward too (eq. 3's factor 96 = 4 · 24), so it is a hardware-FLOPs figure: divide it by the 312
    TFLOP/s peak and you get HFU, about 4/3 of MFU. A larger micro-batch makes each matmul larger (closer to the
    roofline's flat part) but leaves fewer micro-batches m = B/(d·b) to fill the pipeline's bubble.</p>`,
  exempt: { oracle: NO_ORACLE },
};

const pairFor = (p) => [{ ...SETTINGS, model: p.model, gpu: p.gpu, nodes: p.nodes, t: 8, p: p.pp, B: p.B },
  { ...SETTINGS, model: p.model, gpu: p.gpu, nodes: p.nodes, t: 4, p: 2 * p.pp, B: p.B }];

export const faster = {
  id: "planner-faster",
  kind: "numeric",
  title: "Which layout is faster?",
  params: (rng) => ({ model: pick(rng, ["gpt3-175b", "gpt-145.6b"]), gpu: pick(rng, ["a100-80gb", "h100-sxm"]),
    nodes: 64, pp: pick(rng, [4, 8]), B: pick(rng, [512, 1536]) }),
  prompt: (p) => `<p><code>${p.model}</code> (its own sequence length) on 64 nodes of 8 <code>${p.gpu}</code>,
    global batch ${p.B}, micro-batch b = 1, v = 1, c = e = 1, full recomputation, no ZeRO, FlashAttention-2, BF16,
    sequence parallelism off and the data-parallel all-reduce not overlapped (the widget opens with “Sequence parallel” and “Overlap DP with
    backward” ticked: untick both). Layout A is t = 8, p = ${p.pp}; layout B is t = 4, p = ${2 * p.pp} (the same d).
    Price both in the widget. What is the step time of the faster one, in seconds — and which part of the step makes
    the difference?</p>`,
  answer: (p, core) => Math.min(...pairFor(p).map((s) => plan(core, s).time.total)),
  tolerance: { rel: 0.005 },
  unit: "seconds",
  unitSymbol: "s",
  wrongAnswer: (p, core) => Math.max(...pairFor(p).map((s) => plan(core, s).time.total)),
  slips: [
    { name: "the slower layout", value: (p, core) => Math.max(...pairFor(p).map((s) => plan(core, s).time.total)),
      explain: "It matches the step time of the slower of the two layouts: the question asks for the faster one's." },
    { name: "the widget's switches left on",
      value: (p, core) => Math.min(...pairFor(p).map((s) => plan(core, { ...s, sp: true, overlap: true }).time.total)),
      explain: `It matches the faster layout priced with “Sequence parallel” and “Overlap DP with backward” ticked, as
        the widget opens: the question has sequence parallelism off and the all-reduce not overlapped.` },
  ],
  hints: [
    "Halving t doubles p: the tensor-parallel all-reduces get cheaper, the bubble (p − 1)/m gets larger.",
    "Compare the two step splits part by part: compute is the same work, so look at tensor and bubble.",
    "Check the switches first: sequence parallelism and the overlapped all-reduce both change the step; the question has both off.",
  ],
  solutionText: `<p>Going from t = 8 to t = 4 halves the GPUs in each all-reduce ring but keeps its bytes per GPU
    almost the same (2·(t − 1)/t of s·b·h·2), while doubling p doubles the bubble (p − 1)/m. Which wins depends on how
    many micro-batches there are (B/(d·b)) and how fast NVLink is against the GPU: read the split bars. The question
    turns off the two switches the widget opens with: sequence parallelism would turn each all-reduce into a
    reduce-scatter and an all-gather and shrink the activations, and an overlapped data-parallel all-reduce would
    hide behind backward — both move the step time.</p>`,
  exempt: { oracle: NO_ORACLE },
};

export const doubleD = {
  id: "planner-double-d",
  kind: "numeric",
  title: "Twice the data parallelism, the same batch",
  // The rows with a pipeline (p > 1): their bubble is what the doubled d exposes.
  params: (rng) => ({ row: pick(rng, [5, 6, 7, 8, 9, 10]), b: pick(rng, [1, 2]) }),
  prompt: (p) => `<p>Load row ${p.row} of Table 1 (in <a href="#published">the published tables' widget</a>) into the
    planner and set the micro-batch to
    b = ${p.b} and the chunks per GPU to v = 1; then double the number of GPUs by doubling d (twice the nodes, the same t and p), keeping the global
    batch (every other control as the row set it). What MFU, in per cent, does the planner give now — and why does it
    fall?</p>`,
  answer: (p, core) => {
    const s = rowAt(core, p);
    return 100 * plan(core, { ...s, nodes: 2 * s.nodes }).mfu;
  },
  tolerance: { rel: 0.01 },
  unit: "%",
  unitSymbol: "%",
  wrongAnswer: (p, core) => 100 * plan(core, rowAt(core, p)).mfu,
  hints: [
    "Each pipeline now gets half as many micro-batches: m = B/(d·b).",
    "The bubble is (p − 1) micro-batch slots whatever m is: a larger share of a shorter step.",
    "Load the row, set b, double the nodes in the widget, read MFU.",
  ],
  solutionText: `<p>At a fixed global batch, doubling d halves m = B/(d·b): the work per pipeline halves but its
    bubble, (p − 1) slots of one micro-batch, does not, and the data-parallel all-reduce is paid once per step. So
    the GPUs idle a larger fraction of the step and MFU falls — why large runs grow the batch with the cluster.</p>`,
  exempt: { oracle: NO_ORACLE },
};
