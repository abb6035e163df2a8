// calcs.js — every number in Week 6's prose, computed by the core (keys match data-calc in index.html, whose header
// comment lists the formulas). The page test checks each against the value printed in the HTML. Units: seconds
// written in minutes or hours where the prose reads better so, bytes (SI), fractions as percentages.
// Scenarios: checkpoint_setup.js, elastic_setup.js, compression_setup.js.
import { formatBytes, formatCount, formatNumber, formatPercent, formatRatio, formatSeconds } from "../../web/units.js";
import { CKPT, DALY_CASES, FLEET, overheadStudy, progressCurves, simulate } from "./checkpoint_setup.js";
import { elasticRun } from "./elastic_setup.js";
import { COMPRESSORS, knee, train, wire } from "./compression_setup.js";

const once = (f) => { let v; return (core) => (v ??= f(core)); };
export const hours = (s) => `${formatNumber(s / 3600)} h`;
export const minutes = (s) => `${formatNumber(s / 60)} min`;
// A wall time that may run to years (work without checkpoints): hours below a year of 365 days, years from there.
export const hoursOrYears = (s) => (s < 365 * 86400 ? hours(s) : `${formatNumber(s / (365 * 86400))} years`);
const DAY = 86400;

const study = once((c) => overheadStudy(c));
const progress = once((c) => progressCurves(c));
const elastic = once((c) => ({ zero: elasticRun(c, { workers: 4, drop: 2 }), dp: elasticRun(c, { workers: 4, drop: 2, replicated: true }),
  bad: elasticRun(c, { workers: 8, drop: 3 }) }));
const runs = {};
const run = (c, key, ef) => (runs[`${key}/${ef}`] ??= key === "none" ? train(c, { compressor: "none" }) : train(c, COMPRESSORS[key].options, ef));
const kneeStudy = once((c) => knee(c));
const priced = once((c) => wire(c, { workers: [8, 64, 128] }));
const wireOf = (c, key, P) => priced(c).series.find((s) => s.key === key).rows.find((r) => r.workers === P);
const noneAt = (c, P) => priced(c).none.find((r) => r.workers === P);
// The smallest P at which top-k 1%'s all-gather sends at least as much as the dense ring all-reduce.
const topkCrossover = once((c) => {
  for (let P = 2; P <= 1024; P++) {
    const w = wire(c, { workers: [P], keys: ["top-k-1"] });
    if (w.series[0].rows[0].bytes >= w.none[0].bytes) return P;
  }
  return null;
});
// `dsml ps --regime ssp --staleness 1 --workers 3 --round-speeds 1,1,1,1,1,20 --iterations 200 --alpha 5e-6
// --bandwidth 1e10 --seed 1` (the CLI's defaults: one server, 1e6 parameters, base 1 s).
const TWO_VALUED = { distribution: "slow-node", base: 0.4, slowProbability: 0.02, slowdown: 4 };
const SSP_ROUND = { regime: "ssp", staleness: 1, workers: 3, iterations: 200, parameters: 1e6,
  speed: { distribution: "per-round", base: 1, roundSpeeds: [1, 1, 1, 1, 1, 20], seed: 1 },
  network: { alpha: 5e-6, beta: 1e-10 } };
const loss = (c, key, ef) => formatNumber(run(c, key, ef).final);

export const CALCS = {
  // 1. failures at scale
  "fleet-10k": (c) => hours(c.fleetMtbf(FLEET.nodeMtbf, FLEET.nodes)),
  "fleet-1k": (c) => hours(c.fleetMtbf(FLEET.nodeMtbf, 1024)),
  "fleet-100k": (c) => minutes(c.fleetMtbf(FLEET.nodeMtbf, 100000)),
  "fleet-30d": (c) => formatCount(Math.round(30 * DAY / c.fleetMtbf(FLEET.nodeMtbf, FLEET.nodes))),
  // 2. checkpointing: C = 60 s, M = 6 h, W = 24 h, R = 5 min, D = 30 s
  "young": (c) => minutes(c.checkpointIntervals(CKPT.checkpoint, CKPT.mtbf).young),
  "daly": (c) => minutes(c.checkpointIntervals(CKPT.checkpoint, CKPT.mtbf).daly),
  "young-overhead": (c) => formatPercent(c.firstOrderOverhead(c.checkpointIntervals(CKPT.checkpoint, CKPT.mtbf).young, CKPT.checkpoint, CKPT.mtbf)),
  "optimal": (c) => minutes(study(c).optimal),
  "complete-overhead": (c) => formatPercent(study(c).at.optimal),
  "sim-overhead": (c) => formatPercent(study(c).sims[2].overhead),
  "sim-ci": (c) => formatPercent(study(c).sims[2].ci),
  "sim-failures": (c) => formatNumber(study(c).sims[2].failures),
  "sim-quarter": (c) => formatPercent(study(c).sims[0].overhead),
  "sim-four": (c) => formatPercent(study(c).sims[4].overhead),
  "daly-24h-young": (c) => minutes(c.checkpointIntervals(300, DALY_CASES[0]).young),
  "daly-24h": (c) => minutes(c.checkpointIntervals(300, DALY_CASES[0]).daly),
  "daly-15m-young": (c) => minutes(c.checkpointIntervals(300, DALY_CASES[2]).young),
  "daly-15m": (c) => minutes(c.checkpointIntervals(300, DALY_CASES[2]).daly),
  "daly-15m-loss": (c) => formatPercent(c.expectedWallTime({ work: CKPT.work, interval: c.checkpointIntervals(300, DALY_CASES[2]).young,
    checkpoint: 300, mtbf: DALY_CASES[2] }) / c.expectedWallTime({ work: CKPT.work, interval: c.optimalInterval({ work: CKPT.work,
    checkpoint: 300, mtbf: DALY_CASES[2] }), checkpoint: 300, mtbf: DALY_CASES[2] }) - 1),
  "progress-ckpt": (c) => hours(progress(c).checkpointed[23]),
  "progress-ckpt-sim": (c) => hours(progress(c).simulated[1].checkpointed),
  "progress-none": (c) => hours(progress(c).none[23]),
  "progress-none-sim": (c) => hours(progress(c).simulated[1].none),
  "progress-none-ci": (c) => hours(progress(c).simulated[1].noneCi),
  "progress-none-48": (c) => formatNumber(progress(c).none.at(-1) / (365 * DAY)),
  "lost-per-failure": (c) => minutes(simulate(c, { interval: c.checkpointIntervals(CKPT.checkpoint, CKPT.mtbf).daly }).lostWorkPerFailure),
  // 3. elastic training (P = 4, two leave at step 10 and come back at step 25; B = 24, Adam)
  "elastic-diff": (c) => formatNumber(elastic(c).zero.maxRelativeDifference, 2),
  "elastic-moved-down": (c) => formatBytes(elastic(c).zero.resizes[0].optimizerBytesMoved),
  "elastic-moved-up": (c) => formatBytes(elastic(c).zero.resizes[1].optimizerBytesMoved),
  "elastic-joiners": (c) => formatBytes(elastic(c).zero.resizes[1].parameterBytesToJoiners),
  "elastic-dp-up": (c) => formatBytes(elastic(c).dp.resizes[1].optimizerBytesMoved),
  // 4. gradient compression (the teacher task, P = 4, 300 steps)
  "c-none": (c) => loss(c, "none", false),
  "c-none-bytes": (c) => formatBytes(run(c, "none", false).bytesPerStep),
  "c-topk": (c) => loss(c, "top-k-1", false),
  "c-topk-ef": (c) => loss(c, "top-k-1", true),
  "c-topk-bytes": (c) => formatBytes(run(c, "top-k-1", true).bytesPerStep),
  "c-topk-saving": (c) => formatRatio(run(c, "none", false).bytesPerStep / run(c, "top-k-1", true).bytesPerStep, { digits: 2 }),
  "c-randk": (c) => loss(c, "random-k-1", false),
  "c-randk-ef": (c) => loss(c, "random-k-1", true),
  "c-randk-bytes": (c) => formatBytes(run(c, "random-k-1", true).bytesPerStep),
  "c-int8": (c) => loss(c, "int8", false),
  "c-int8-bytes": (c) => formatBytes(run(c, "int8", false).bytesPerStep),
  "c-qsgd": (c) => loss(c, "qsgd-16", false),
  "c-qsgd-ef": (c) => loss(c, "qsgd-16", true),
  "c-qsgd-bytes": (c) => formatBytes(run(c, "qsgd-16", false).bytesPerStep),
  "c-qsgd4-div": (c) => String(run(c, "qsgd-4", true).diverged),
  "c-qsgd4": (c) => loss(c, "qsgd-4", false),
  "qsgd-bound-16": (c) => formatNumber(c.qsgdVarianceBound(256, 16)),
  "qsgd-bound-4": (c) => formatNumber(c.qsgdVarianceBound(256, 4)),
  "c-sign": (c) => loss(c, "sign", false),
  "c-sign-div": (c) => String(run(c, "sign", true).diverged),
  "c-sign-bytes": (c) => formatBytes(run(c, "sign", false).bytesPerStep),
  "c-power": (c) => loss(c, "powersgd-1", false),
  "c-power-ef": (c) => loss(c, "powersgd-1", true),
  "c-power-bytes": (c) => formatBytes(run(c, "powersgd-1", true).bytesPerStep),
  "knee-ratio": (c) => formatPercent(kneeStudy(c).knee.ratio),
  "knee-bytes": (c) => formatBytes(kneeStudy(c).knee.bytesPerStep),
  "knee-loss": (c) => formatNumber(kneeStudy(c).knee.final),
  "sweep-1-bytes": (c) => formatBytes(kneeStudy(c).sweep.at(-1).bytesPerStep),
  // pricing: 4 × (1024, 4096), 134 MB of fp32 gradient, the course's InfiniBand (web/hardware.js)
  "w-none-64": (c) => formatBytes(noneAt(c, 64).bytes),
  "w-none-64-s": (c) => formatSeconds(noneAt(c, 64).seconds),
  "w-topk-64": (c) => formatBytes(wireOf(c, "top-k-1", 64).bytes),
  "w-topk-64-s": (c) => formatSeconds(wireOf(c, "top-k-1", 64).seconds),
  "w-topk-128": (c) => formatBytes(wireOf(c, "top-k-1", 128).bytes),
  "w-none-128": (c) => formatBytes(noneAt(c, 128).bytes),
  "w-crossover": (c) => String(topkCrossover(c)),
  "w-int8-8": (c) => formatBytes(wireOf(c, "int8", 8).bytes),
  "w-none-8": (c) => formatBytes(noneAt(c, 8).bytes),
  "w-randk-64": (c) => formatBytes(wireOf(c, "random-k-1", 64).bytes),
  "w-power-64": (c) => formatBytes(wireOf(c, "powersgd-2", 64).bytes),
  // the capstone: E[slowest of P] for 400 ms, 4× slow with probability 0.02 (core.expectedRoundCompute)
  "emax-1": (c) => formatSeconds(c.expectedRoundCompute(TWO_VALUED, 1, 1)),
  "emax-8": (c) => formatSeconds(c.expectedRoundCompute(TWO_VALUED, 8, 8)),
  "emax-64": (c) => formatSeconds(c.expectedRoundCompute(TWO_VALUED, 64, 64)),
  // the capstone's SSP: the oldest update Week 4's engine applies with per-round speeds, at the (2s + 1)(P − 1) bound
  "ssp-round-tau-max": (c) => String(Math.max(...c.simulateParamServer(SSP_ROUND).updates.tau)),
};
