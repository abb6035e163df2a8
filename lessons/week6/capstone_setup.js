// capstone_setup.js — Week 6's capstone: the settings of the simulated 64-GPU job, the request the core takes, and
// the report's numbers and sentences, in one place so the widget (widgets/capstone.js), its Worker and the page test
// (tests/e2e/week6_capstone.test.mjs) agree. Every function that needs the core takes it first and returns plain
// values, so a widget can run it in a Worker (web/lesson/core_tasks.js runs any export by name).
// The core's calls: core/bindings/dsml.d.ts, "Week 6: the capstone": simulateJob, jobScaling
// (core/include/dsml/simulated_job.h says what each part of the job models).

import { formatBytes, formatNumber, formatPercent } from "../../web/units.js";
import { A100_SUSTAINED_FLOPS, LINKS } from "../../web/hardware.js";

const HOUR = 3600, DAY = 24 * HOUR;

// A duration in the unit a report reads best in: "45 s", "12.3 min", "2.45 h", "3.1 days".
export function formatDuration(seconds) {
  if (seconds < 120) return `${formatNumber(seconds)} s`;
  if (seconds < 2 * HOUR) return `${formatNumber(seconds / 60)} min`;
  if (seconds < 2 * DAY) return `${formatNumber(seconds / HOUR)} h`;
  return `${formatNumber(seconds / DAY)} days`;
}
// The formatters the report and findings() use, so the page test formats the core's numbers the same way.
export const FORMAT = Object.freeze({ time: formatDuration, bytes: formatBytes, number: formatNumber,
  percent: (x) => formatPercent(x, { digits: 3 }) });

// The job the report is for: 64 GPUs (8 nodes of 8) of the lab's A100-class preset — 150 TFLOP/s sustained,
// InfiniBand 25 GB/s per GPU — training a 4.3 B-parameter MLP (32 blocks of D = 4096, F = 16384) on 4096 rows per
// GPU, bf16 gradients. A checkpoint takes 20 s, a restart 5 min, a failure is noticed after 30 s. The node MTBF
// default is harsh (1 day; section #failures's GPUs fail once in 5 years) so that a run of half an hour sees failures.
// The model and data the loss is measured on are the learner's (TASKS, taskRows rows per GPU), and so is the loss target
// the time-to-target report trains to, synchronously or asynchronously (SSP with bound `staleness`).
export const DEFAULTS = Object.freeze({
  workers: 64, steps: 1000, lr: 0.05, compressor: "top-k", ratio: 0.001, errorFeedback: true, checkpointEvery: 100,
  nodeMtbfHours: 24, stragglerProbability: 0.01, seed: 1, task: "2x8x32", taskRows: 4, targetLoss: 0.1, mode: "sync",
  staleness: 2,
});
// The teacher tasks a tab trains: L blocks of (D, F).
export const TASKS = Object.freeze({
  "2x8x32": Object.freeze({ layers: 2, width: 8, hidden: 32 }),
  "2x16x64": Object.freeze({ layers: 2, width: 16, hidden: 64 }),
  "4x8x32": Object.freeze({ layers: 4, width: 8, hidden: 32 }),
});
export const taskName = (key) => { const t = TASKS[key]; return `${t.layers} × (${t.width}, ${t.hidden})`; };
// The P of the time-to-target sweep (the asynchronous replay records the loss after every shard's update, P² a clock).
export const TARGET_SWEEP = [1, 2, 4, 8];
// The course's A100 and its InfiniBand between nodes (web/hardware.js).
export const HARDWARE = Object.freeze({ flops: A100_SUSTAINED_FLOPS,
  network: Object.freeze({ alpha: LINKS.infiniband.alpha, beta: LINKS.infiniband.beta }),
  model: Object.freeze({ layers: 32, width: 4096, hidden: 16384 }), rowsPerWorker: 4096, elementBytes: 2,
  checkpointSeconds: 20, restartSeconds: 300, detectionSeconds: 30, slowdown: 2 });
export const SWEEP = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

export const COMPRESSORS = Object.freeze({
  none: "none (full gradient)", "top-k": "top-k", "random-k": "random-k", int8: "8-bit (int8)", qsgd: "QSGD, 16 levels",
  sign: "SignSGD, majority vote", powersgd: "PowerSGD",
});
export const takesRatio = (compressor) => compressor === "top-k" || compressor === "random-k";
// Error feedback's default for each compressor, measured on this job (not one setting for every
// compressor). At the defaults (64 GPUs, 1000 steps, η = 0.05, k/n = 0.001) the final loss with / without error
// feedback is: top-k 0.0500 / 0.272, PowerSGD 0.0527 / 0.0670, SignSGD (majority vote) 0.0252 / 0.0463 — on for
// these; random-k not a number / 1.69 (with 64 workers its residuals grow until the run diverges) — off; 8-bit
// 0.05273 either way and QSGD 0.05272 / 0.05279 (unbiased, nothing to feed back) — off. Section #compression's 4-worker runs
// differ (there SignSGD with error feedback diverges at this rate): the choice is the widget's, shown beside the
// compressor and reset to this default when the compressor changes. tests/exercises/capstone_defaults.test.mjs.
export const EF_DEFAULT = Object.freeze({ none: false, "top-k": true, "random-k": false, powersgd: true, int8: false,
  qsgd: false, sign: true });
export const errorFeedbackOf = (s) => s.compressor !== "none" && (s.errorFeedback ?? EF_DEFAULT[s.compressor]);

// The settings as the core's JobRequest. `ratio` is top-k's and random-k's k/n; PowerSGD's rank is 4.
export function jobRequest(s) {
  return {
    workers: s.workers, steps: s.steps, lr: s.lr, compressor: s.compressor, ratio: s.ratio, rank: 4, levels: 16,
    errorFeedback: errorFeedbackOf(s), stragglerProbability: s.stragglerProbability, failures: true,
    nodeMtbf: s.nodeMtbfHours * HOUR, checkpointEvery: s.checkpointEvery, seed: s.seed,
    flops: HARDWARE.flops, network: { ...HARDWARE.network }, model: { ...HARDWARE.model },
    rowsPerWorker: HARDWARE.rowsPerWorker, elementBytes: HARDWARE.elementBytes, slowdown: HARDWARE.slowdown,
    checkpointSeconds: HARDWARE.checkpointSeconds, restartSeconds: HARDWARE.restartSeconds,
    detectionSeconds: HARDWARE.detectionSeconds, task: { ...TASKS[s.task ?? DEFAULTS.task] },
    taskRows: s.taskRows ?? DEFAULTS.taskRows,
  };
}

// The loss curve depends only on P, steps, lr and the compressor (the teacher has its own seed), so the Worker keeps
// the last few: moving the failure, checkpoint or straggler controls re-times the job without training it again.
const curves = new Map();
function lossCurve(core, request) {
  const key = JSON.stringify([request.workers, request.steps, request.lr, request.compressor, request.ratio, request.errorFeedback,
    request.task, request.taskRows]);
  if (!curves.has(key)) {
    curves.set(key, Array.from(core.simulateJob({ ...request, failures: false }).losses));
    if (curves.size > 8) curves.delete(curves.keys().next().value);
  }
  return curves.get(key);
}

// The run and the sweep over P, as plain values (typed arrays copied).
export function report(core, settings) {
  const request = jobRequest(settings);
  const run = core.simulateJob({ ...request, train: false });   // first: a job the core refuses trains nothing
  const losses = lossCurve(core, request);
  const sweep = core.jobScaling(request, SWEEP).map((p) => ({ ...p }));
  return {
    settings: { ...settings },
    losses,
    stepCompute: run.stepCompute, stepComm: run.stepComm, work: run.work, wall: run.wall, split: { ...run.split },
    failures: run.failures, checkpoints: run.checkpoints, slowSteps: run.slowSteps, interval: run.interval,
    fleetMtbf: run.fleetMtbf, expectedWall: run.expectedWall, efficiency: run.efficiency,
    bytesPerStep: run.bytesPerStep, uncompressedBytesPerStep: run.uncompressedBytesPerStep,
    bytesPerWorker: run.bytesPerWorker, composesWithAllReduce: run.composesWithAllReduce,
    youngSteps: run.youngSteps, dalySteps: run.dalySteps, optimalSteps: run.optimalSteps,
    expectedWallAtOptimal: run.expectedWallAtOptimal, sweep,
  };
}

// The time-to-target sweep (core.jobTargetScaling): the job trained until its held-out loss reaches the target, at each
// P of TARGET_SWEEP, synchronously or by SSP (which sends whole gradients: compressor none, said in the report).
export function targetRequest(s) {
  const asynchronous = s.mode === "ssp";
  return { ...jobRequest(s), targetLoss: s.targetLoss, asynchronous, staleness: s.staleness,
    ...(asynchronous ? { compressor: "none", errorFeedback: false } : {}) };
}
export function targetReport(core, settings) {
  const sweep = core.jobTargetScaling(targetRequest(settings), TARGET_SWEEP);
  return { settings: { ...settings }, points: sweep.points.map((p) => ({ ...p })), best: sweep.best };
}

// One P of that sweep: the page trains them one at a time, to show how far the sweep has come and to stop between two.
export function targetPoint(core, settings, workers) {
  return { ...core.jobTargetScaling(targetRequest(settings), [workers]).points[0] };
}
// The sweep's report from its points, one per P of TARGET_SWEEP: best is the soonest P that reached the target (the
// core's target_scaling picks it so, from the same independent runs), -1 when none did.
export function targetReportOf(settings, points) {
  let best = -1;
  points.forEach((p, i) => { if (p.reached && (best < 0 || p.wall < points[best].wall)) best = i; });
  return { settings: { ...settings }, points, best };
}

// The wall time's parts, in the order the report shows them.
export const SPLIT = [["compute", "compute"], ["communication", "communication"], ["stragglerWait", "straggler wait"],
  ["checkpoints", "checkpoint writes"], ["lostWork", "lost work"], ["restarts", "detection + restarts"]];

// A few sentences generated from the numbers (fmt: the formatters, FORMAT by default).
export function findings(r, fmt = FORMAT) {
  const s = r.settings, out = [];
  const biggest = SPLIT.filter(([k]) => k !== "compute").map(([k, name]) => [name, r.split[k]])
    .sort((a, b) => b[1] - a[1])[0];
  out.push(`${s.workers} GPUs finished ${s.steps} steps in ${fmt.time(r.wall)} of wall-clock time, of which ` +
    `${fmt.percent(r.efficiency)} was useful compute; the largest loss was ${biggest[0]} (${fmt.time(biggest[1])}).`);
  const saved = 1 - r.bytesPerStep / r.uncompressedBytesPerStep;
  out.push(s.compressor === "none"
    ? `Each GPU sent ${fmt.bytes(r.bytesPerStep)} a step (ring all-reduce of the bf16 gradient), ${fmt.bytes(r.bytesPerWorker)} in all.`
    : saved > 0
      ? `Compression cut each GPU's traffic to ${fmt.bytes(r.bytesPerStep)} a step, ${fmt.percent(saved)} less than the full gradient ` +
        `(${fmt.bytes(r.uncompressedBytesPerStep)}), ${r.composesWithAllReduce ? "still by ring all-reduce" : "by all-gather, whose bytes grow with P"}.`
      : `Compression did not pay: ${fmt.bytes(r.bytesPerStep)} a step against ${fmt.bytes(r.uncompressedBytesPerStep)} for the full gradient, ` +
        `because an all-gather's bytes grow with P.`);
  const lossDrop = r.losses[0] / r.losses.at(-1);
  out.push(`The held-out loss of the teacher task fell from ${fmt.number(r.losses[0])} to ${fmt.number(r.losses.at(-1))}` +
    (Number.isFinite(lossDrop) ? ` (${fmt.number(lossDrop)}× lower).` : "."));
  const ratio = s.checkpointEvery / r.optimalSteps;
  out.push(`${r.failures === 0 ? "No failure" : r.failures === 1 ? "One failure" : `${r.failures} failures`} hit the run (fleet MTBF ${fmt.time(r.fleetMtbf)}; ` +
    `Daly's model expects the run to take ${fmt.time(r.expectedWall)}). Checkpointing every ${s.checkpointEvery} steps is ` +
    (ratio > 1.5 ? `too rare: the optimum is about ${Math.round(r.optimalSteps)} steps.`
      : ratio < 2 / 3 ? `too frequent: the optimum is about ${Math.round(r.optimalSteps)} steps.`
        : `close to the optimum of about ${Math.round(r.optimalSteps)} steps.`));
  const at = (p) => r.sweep.find((x) => x.workers === p);
  const big = at(1024), one = at(1);
  if (big && one) out.push(`In expectation, efficiency falls from ${fmt.percent(one.efficiency)} on 1 GPU to ` +
    `${fmt.percent(at(64).efficiency)} on 64 and ${fmt.percent(big.efficiency)} on 1024 with these settings.`);
  return out;
}
