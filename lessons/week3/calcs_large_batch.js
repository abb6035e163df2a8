// calcs_large_batch.js — every number in the prose of sections #large-batch … #comm-wall (large batches, strong vs weak scaling, the
// communication wall), computed by the core: the large-batch runs of large_batch_setup.js, the scaling and
// comm-bound numbers of scaling_setup.js; calcs.js spreads them into the page's CALCS. Runs are memoised: one Worker
// computes them all. Each optimizer's base rate (BASE) is the best of its fine sweep at P = 1: a test re-runs the
// sweep (bestRate) rather than the page, whose numbers would otherwise wait for 14 extra training runs.
import { formatCount, formatNumber, formatPercent, formatRatio, formatSeconds } from "../../web/units.js";
import { BASE, LOCAL_BATCH, SAMPLES, SWEEPS, finalLoss, scaled, stepsAt, train, warmupSteps } from "./large_batch_setup.js";
import { GRAD_BYTES, INFINIBAND, NVLINK, STRONG_BATCH, WALL_ROWS, WEAK_BATCH, allReduceTime, commBound, ddpStep, scaling } from "./scaling_setup.js";

const memo = new Map();
const once = (key, f) => { if (!memo.has(key)) memo.set(key, f()); return memo.get(key); };
const loss = (x) => formatNumber(x, { digits: 3 });
const run = (c, optimizer, lr, ranks, warmup = false) =>
  once(`${optimizer}/${lr}/${ranks}/${warmup}`, () => train(c, { optimizer, lr, ranks, warmup }));
const lin = (c, optimizer, ranks, warmup = false) => run(c, optimizer, BASE[optimizer] * ranks, ranks, warmup);
// SGD's best rate of the sweep at P = 8, without warm-up.
const sgdBest8 = (c) => SWEEPS.sgd.reduce((a, lr) => (finalLoss(run(c, "sgd", lr, 8)) < finalLoss(run(c, "sgd", a, 8)) ? lr : a));
const larsRatios = (c) => lin(c, "lars", 8).trustRatios[0];   // the run of lb-lars-8 (scaled(c, "lars", 8) is the same)
// Nodes of 8 on NVLink, InfiniBand between them (scaling_setup.js linkAt): P = 8 stays in a node, P = 64 crosses nodes.
const strong = (c, P) => once(`strong/${P}`, () => scaling(c, { mode: "strong", network: "nodes", batch: STRONG_BATCH, ranks: [P] })[0]);
const weak = (c, P) => once(`weak/${P}`, () => scaling(c, { mode: "weak", network: "nodes", batch: WEAK_BATCH, ranks: [P] })[0]);
const wall = (c) => once("wall", () => ddpStep(c, { ranks: 64, link: INFINIBAND, rowsPerDevice: WALL_ROWS }));
const exposed = (cost) => Math.max(0, cost.total - cost.compute);

export const CALCS_LARGE_BATCH = {
  // #large-batch: large batches
  "lb-samples": () => formatCount(SAMPLES),
  "lb-local": () => String(LOCAL_BATCH),
  "lb-steps-1": () => String(stepsAt(1)),
  "lb-steps-8": () => String(stepsAt(8)),
  "lb-warmup-8": () => String(warmupSteps(8)),
  "lb-base-sgd": () => String(BASE.sgd),
  "lb-base-lars": () => String(BASE.lars),
  "lb-base-adam": () => String(BASE.adam),
  "lb-sgd-1": (c) => loss(finalLoss(lin(c, "sgd", 1))),
  "lb-sgd-8-lr": () => formatNumber(8 * BASE.sgd),
  "lb-sgd-2-div": (c) => String(lin(c, "sgd", 2).divergedAt),
  "lb-sgd-8-div": (c) => String(lin(c, "sgd", 8).divergedAt),
  "lb-sgd-8-warm-div": (c) => String(lin(c, "sgd", 8, true).divergedAt),
  "lb-sgd-2-warm": (c) => loss(finalLoss(lin(c, "sgd", 2, true))),
  "lb-sgd-04-div": (c) => String(run(c, "sgd", 0.4, 8).divergedAt),
  "lb-sgd-04-warm": (c) => loss(finalLoss(run(c, "sgd", 0.4, 8, true))),
  "lb-sgd-best8-lr": (c) => String(sgdBest8(c)),
  "lb-sgd-best8": (c) => loss(finalLoss(run(c, "sgd", sgdBest8(c), 8))),
  "lb-lars-1": (c) => loss(finalLoss(lin(c, "lars", 1))),
  "lb-lars-8": (c) => loss(finalLoss(lin(c, "lars", 8))),
  "lb-lars-8-lr": () => formatNumber(8 * BASE.lars),
  "lb-adam-8": (c) => loss(finalLoss(lin(c, "adam", 8))),
  "lb-adam-8-warm": (c) => loss(finalLoss(lin(c, "adam", 8, true))),
  "lb-lamb-8": (c) => loss(finalLoss(lin(c, "lamb", 8))),
  "lb-lamb-8-warm": (c) => loss(finalLoss(lin(c, "lamb", 8, true))),
  "lb-trust-min": (c) => formatNumber(Math.min(...larsRatios(c)), { digits: 3 }),
  "lb-trust-max": (c) => formatNumber(Math.max(...larsRatios(c)), { digits: 3 }),
  // #strong-weak: strong vs weak scaling
  "sc-strong-batch": () => formatCount(STRONG_BATCH),
  "sc-strong-rows-64": () => formatCount(STRONG_BATCH / 64),
  "sc-weak-batch": () => formatCount(WEAK_BATCH),
  "sc-strong-8": (c) => formatRatio(strong(c, 8).speedup, { decimals: 1 }),
  "sc-strong-8-eff": (c) => formatPercent(strong(c, 8).efficiency, { decimals: 0 }),
  "sc-strong-64": (c) => formatRatio(strong(c, 64).speedup, { decimals: 1 }),
  "sc-strong-64-eff": (c) => formatPercent(strong(c, 64).efficiency, { decimals: 0 }),
  "sc-weak-8": (c) => formatRatio(weak(c, 8).speedup, { decimals: 1 }),
  "sc-weak-64": (c) => formatRatio(weak(c, 64).speedup, { decimals: 1 }),
  "sc-weak-64-eff": (c) => formatPercent(weak(c, 64).efficiency, { decimals: 0 }),
  // the comm-bound batch: 8 GPUs of a node over NVLink, 64 across nodes over InfiniBand
  "sc-bstar-nvlink": (c) => formatCount(Math.round(commBound(c, { link: NVLINK, ranks: 8 }))),
  "sc-bstar-ib": (c) => formatCount(Math.round(commBound(c, { link: INFINIBAND, ranks: 64 }))),
  "sc-bstar-nvlink-nooverlap": (c) => formatCount(Math.round(commBound(c, { link: NVLINK, ranks: 8, overlap: false }))),
  "sc-bstar-nvlink-k4": (c) => formatCount(Math.round(commBound(c, { link: NVLINK, ranks: 8, overlap: false, microBatches: 4 }))),
  // #comm-wall: the communication wall
  "cw-bytes": () => `${GRAD_BYTES / 1e6} MB`,
  "cw-ar-2": (c) => formatSeconds(allReduceTime(c, 2, INFINIBAND)),
  "cw-ar-64": (c) => formatSeconds(allReduceTime(c, 64, INFINIBAND)),
  "cw-ar-256": (c) => formatSeconds(allReduceTime(c, 256, INFINIBAND)),
  "cw-ar-limit": () => formatSeconds(2 * GRAD_BYTES * INFINIBAND.beta),
  "cw-ar-256-latency": (c) => formatSeconds(allReduceTime(c, 256, INFINIBAND, 0)),
  "cw-ar-8-nvlink": (c) => formatSeconds(allReduceTime(c, 8, NVLINK)),
  "cw-rows": () => formatCount(WALL_ROWS),
  "cw-backward-64": (c) => formatSeconds((wall(c).flat.compute * 2) / 3),
  "cw-exposed-flat-64": (c) => formatSeconds(exposed(wall(c).flat)),
  "cw-exposed-naive-64": (c) => formatSeconds(exposed(wall(c).naive)),
  "cw-exposed-bucketed-64": (c) => formatSeconds(exposed(wall(c).bucketed)),
  "cw-bucket-latency": (c) => formatSeconds(allReduceTime(c, 64, INFINIBAND, 0)),
};
