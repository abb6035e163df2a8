// calcs.js — every number in Week 5's prose, computed by the core (keys match data-calc in index.html, whose header
// comment lists the formulas). The page test checks each against the value printed in the HTML.
import { formatBytes, formatCount, formatNumber, formatPercent, formatRatio, formatSeconds, formatSI } from "../../web/units.js";
import { EXAMPLE_PIPE, OVERHEAD_EXAMPLE, compareSchedules, optimalM, trainSchedule } from "./pipeline_setup.js";
import { ANATOMY, LAYOUT_EXAMPLE, MOE_EXAMPLE, MOE_REAL, labFreeAlpha, labZeroStep, layouts, mlpBlockActivations, priceMoeAllToAll,
  tpBytes, tpCollectives, zeroCommBytes, zeroStates } from "./scale_setup.js";
import { MOE_BALANCE, lateDrops, trainBalanced } from "./moe_balance_setup.js";

// Several numbers read one run: compute each once per core (the pipeline trainings and the MoE run take ~0.1–0.3 s).
const memos = new WeakMap();
function once(c, key, fn) {
  if (!memos.has(c)) memos.set(c, new Map());
  const m = memos.get(c);
  if (!m.has(key)) m.set(key, fn());
  return m.get(key);
}
const pct = (x, decimals = 1) => formatPercent(x, { decimals });
const below = (x) => formatNumber(10 ** Math.ceil(Math.log10(Math.max(x, 1e-300))));
const GB = (x) => formatBytes(x, { digits: 3 });
const cmp = (c) => once(c, "cmp", () => compareSchedules(c));
const cmp8 = (c, v) => once(c, `cmp8-${v}`, () => compareSchedules(c, { devices: 8, microBatches: 16, chunksPerDevice: v }));
// ZB-H1 with a weight-gradient half slower than the forward (t_w > t_f): where the paper's estimate stops holding.
const zbSlowW = (c) => compareSchedules(c, EXAMPLE_PIPE, { forward: 1, backwardInput: 0.5, backwardWeight: 1 })["zb-h1"];
const recompute = (c) => c.recomputationTradeoff({ ...ANATOMY, tensorParallel: 8, sequenceParallel: true });
const worstTrain = (c) => Math.max(...["gpipe", "1f1b", "interleaved", "zb-h1"].map((s) => trainSchedule(c, s).maxRelativeDifference));
const layout = (c) => once(c, "layouts", () => layouts(c));
const layoutRow = (c, t, p, d) => layout(c).rows.find((r) => r.t === t && r.p === p && r.d === d);
const labZero = (c, strategy, link) => once(c, `lab-${strategy}-${link ? "free" : "nvlink"}`, () => labZeroStep(c, strategy, link));
const commOf = (r) => Object.values(r.comm).reduce((a, b) => a + b, 0);
const moe = (c) => once(c, "moe", () => c.expertParallel(MOE_EXAMPLE));
const balanced = (c, alpha) => once(c, `balance-${alpha}`, () => trainBalanced(c, alpha));

export const CALCS = {
  // 1 tensor parallelism
  "tp-gather-bytes": () => formatBytes(tpBytes().gatherBytes),
  "tp-reduce-bytes": () => formatBytes(tpBytes().reduceBytes),
  "tp-gather": (c) => formatSeconds(tpCollectives(c).gather),
  "tp-reduce": (c) => formatSeconds(tpCollectives(c).reduce),
  "tp-ratio": (c) => formatRatio(tpCollectives(c).gather / tpCollectives(c).reduce, { digits: 2 }),
  "tp-equal": (c) => below(c.trainCompare({ strategy: "tp", grid: { dp: 1, tp: 4, pp: 1 }, model: { layers: 4, width: 32, hidden: 64 },
    optimizer: { kind: "sgd", lr: 0.1 }, batch: 64, steps: 10, seed: 3 }).maxRelativeDifference),
  // 2 pipelines: P = 4, m = 8, unit times
  "pp-makespan": (c) => formatNumber(cmp(c)["1f1b"].makespan),
  "pp-ideal": (c) => formatNumber(cmp(c)["1f1b"].ideal),
  "pp-frac": (c) => pct(cmp(c)["1f1b"].bubbleFraction),
  "pp-over": (c) => pct(cmp(c)["1f1b"].bubbleOverIdeal),
  "pp-act-gpipe": (c) => formatCount(cmp(c).gpipe.peakStageActivations),
  "pp-act-1f1b": (c) => formatCount(cmp(c)["1f1b"].peakStageActivations),
  "pp-messages": (c) => formatCount(cmp(c)["1f1b"].messages),
  // 3 interleaved, v = 2
  "il-over": (c) => pct(cmp(c).interleaved.bubbleOverIdeal),
  "il-makespan": (c) => formatNumber(cmp(c).interleaved.makespan),
  // The same step in the pipeline-timeline widget's unit (one chunk's forward = 1/v of a stage's): v times the above.
  "il-makespan-chunks": (c) => formatNumber(c.pipelineTimeline({ schedule: "interleaved", ...EXAMPLE_PIPE }).makespan),
  "il-messages": (c) => formatCount(cmp(c).interleaved.messages),
  "il-act": (c) => formatNumber(cmp(c).interleaved.peakStageActivations),
  "il-8-2": (c) => pct(cmp8(c, 2).interleaved.bubbleOverIdeal),
  "il-8-4": (c) => pct(cmp8(c, 4).interleaved.bubbleOverIdeal),
  "il-8-1f1b": (c) => pct(cmp8(c, 2)["1f1b"].bubbleOverIdeal),
  "il-8-msg-4": (c) => formatCount(cmp8(c, 4).interleaved.messages),
  // 4 zero bubble
  "zb-over": (c) => pct(cmp(c)["zb-h1"].bubbleOverIdeal),
  "zb-makespan": (c) => formatNumber(cmp(c)["zb-h1"].makespan),
  "zb-act": (c) => formatCount(cmp(c)["zb-h1"].peakStageActivations),
  "zb-slow-w": (c) => pct(zbSlowW(c).bubbleOverIdeal),
  "zb-slow-w-formula": (c) => pct(zbSlowW(c).formulaOverIdeal),
  "train-equal": (c) => below(worstTrain(c)),
  // 5 micro-batches with overhead, recomputation, anatomy
  "mb-closed": (c) => formatNumber(optimalM(c).closedForm, { decimals: 1 }),
  "mb-best": (c) => formatCount(optimalM(c).best),
  "mb-best-step": (c) => formatSeconds(optimalM(c).bestStep),
  "mb-at-8": (c) => formatSeconds(optimalM(c).steps[7]),
  "mb-at-max": (c) => formatSeconds(optimalM(c).steps[OVERHEAD_EXAMPLE.max - 1]),
  "rc-kept-1": (c) => formatBytes(c.recomputationTradeoff({ ...ANATOMY }).keptBytes),
  "rc-kept": (c) => formatBytes(recompute(c).keptBytes),
  "rc-recomputed": (c) => formatBytes(recompute(c).recomputedBytes),
  "rc-saved": (c) => pct(recompute(c).savedFraction),
  "rc-factor": (c) => formatRatio(recompute(c).computeFactor, { digits: 3 }),
  "mlp-act": (c) => formatBytes(mlpBlockActivations(c)),
  "mlp-ratio": (c) => formatRatio(c.recomputationTradeoff({ ...ANATOMY }).keptBytes / mlpBlockActivations(c), { digits: 2 }),
  // 6 ZeRO at real sizes: 7B on 64 devices
  "z7-dp": (c) => GB(zeroStates(c, 7e9, 0, 64)),
  "z7-1": (c) => GB(zeroStates(c, 7e9, 1, 64)),
  "z7-2": (c) => GB(zeroStates(c, 7e9, 2, 64)),
  "z7-3": (c) => GB(zeroStates(c, 7e9, 3, 64)),
  "z7-comm-1": (c) => GB(zeroCommBytes(c, 7e9, 1, 64)),
  "z7-comm-3": (c) => GB(zeroCommBytes(c, 7e9, 3, 64)),
  "z7-extra": (c) => GB(zeroCommBytes(c, 7e9, 3, 64) - zeroCommBytes(c, 7e9, 1, 64)),
  "z175-3-64": (c) => GB(zeroStates(c, 175e9, 3, 64)),
  //   the lab's model on 8 NVLink GPUs: latency as well as bytes
  "zl-psi": (c) => `${formatSI(labZero(c, "single").memoryPerRank[0].params / 2 / 1e6)} million`,
  "zl-mem-dp": (c) => formatBytes(labZero(c, "dp").memoryPerRank[0].total),
  "zl-mem-z3": (c) => formatBytes(labZero(c, "zero3").memoryPerRank[0].total),
  "zl-comm-z2": (c) => formatSeconds(commOf(labZero(c, "zero2"))),
  "zl-comm-z3": (c) => formatSeconds(commOf(labZero(c, "zero3"))),
  "zl-bytes": (c) => formatRatio(commOf(labZero(c, "zero3", labFreeAlpha)) / commOf(labZero(c, "zero2", labFreeAlpha)), { digits: 2 }),
  "zl-ratio": (c) => formatRatio(commOf(labZero(c, "zero3")) / commOf(labZero(c, "zero2")), { digits: 2 }),
  "zl-count": (c) => formatCount(labZero(c, "zero3").spans.filter((s) => s.rank === 0 && s.kind !== "compute").length),
  // 7 experts
  "moe-capacity": (c) => formatCount(moe(c).capacity),
  "moe-dropped": (c) => formatCount(moe(c).dropped),
  "moe-max": (c) => formatCount(Math.max(...moe(c).wanted)),
  "moe-min": (c) => formatCount(Math.min(...moe(c).wanted)),
  "moe-equal": (c) => below(Math.max(moe(c).outputRelativeDifference, moe(c).gradientRelativeDifference)),
  "moe-real-bytes": (c) => formatBytes(priceMoeAllToAll(c, "node").bytesPerRank),
  // What a rank sends of its buffer: all but its own 1/R share (R = experts: one expert per rank).
  "moe-real-sent": (c) => formatBytes(priceMoeAllToAll(c, "node").bytesPerRank * (MOE_REAL.moe.experts - 1) / MOE_REAL.moe.experts),
  "moe-real-node": (c) => formatSeconds(priceMoeAllToAll(c, "node").simulated),
  "moe-real-net": (c) => formatSeconds(priceMoeAllToAll(c, "network").simulated),
  "bal-off": (c) => formatPercent(lateDrops(balanced(c, 0)).share, { decimals: 0 }),
  "bal-on": (c) => formatPercent(lateDrops(balanced(c, 0.01)).share, { decimals: 0 }),
  "bal-loss": (c) => formatNumber(balanced(c, 0.01).balanceLosses[MOE_BALANCE.steps - 1], { digits: 3 }),
  // 8 3-D design: OPT-30B on 8 × 8
  "l-psi": (c) => formatNumber(layout(c).parameters / 1e9, { digits: 3 }),
  "l-count": (c) => formatCount(layout(c).rows.length),
  "l-fits": (c) => formatCount(layout(c).rows.filter((r) => r.fits).length),
  "l-fits-z1": (c) => formatCount(layout(c).rows.filter((r) => r.fitsZero1).length),
  "l-best": (c) => { const b = layout(c).best; return `(${b.t}, ${b.p}, ${b.d})`; },
  "l-best-step": (c) => formatSeconds(layout(c).best.step),
  "l-best-mem": (c) => GB(layout(c).best.memoryBytes),
  "l-next-mem": (c) => GB(layoutRow(c, 4, 8, 2).memoryBytes),
  "l-dp-mem": (c) => GB(layoutRow(c, 1, 1, LAYOUT_EXAMPLE.nodes * LAYOUT_EXAMPLE.gpusPerNode).memoryBytes),
  "l-t4": (c) => formatSeconds(layout(c).best.tensor),
  "l-t8": (c) => formatSeconds(layoutRow(c, 8, 8, 1).tensor),
  "l-compute": (c) => formatSeconds(layout(c).best.compute),
};
