// calcs.js — every number in Week 3's prose, computed by the core (keys match data-calc in index.html, whose
// header comment lists the formulas). The page test checks each against the value printed in the HTML.
import { formatBytes, formatCount, formatNumber, formatPercent, formatRatio, formatSeconds } from "../../web/units.js";
import { EXACT_BATCH, shardExperiment, sumVersusMean } from "./programs/shard_gradients.js";
import { ringBalance } from "./exercises/bucket_size.js";
import { CALCS_LARGE_BATCH } from "./calcs_large_batch.js";
import { LINKS } from "../../web/hardware.js";
import { maxOverlap, measuredOverlap, partialStep } from "./overlap_setup.js";
import { EXAMPLE, PSI, priceDdps } from "./ddp_setup.js";

const comm = (r) => Object.values(r.comm).reduce((a, b) => a + b, 0);
// Gradient accumulation, k micro-batches of 2 048 rows per GPU, no overlap: the share of the step spent communicating.
export function accumulationShare(core, k) {
  const r = core.stepCost({ ...EXAMPLE, strategy: "dp-accumulate", batch: EXAMPLE.batch * k, microBatches: k, overlap: false });
  return comm(r) / r.total;
}
// A tiny fp64 run beside one device, as the core's trainCompare does it.
const TINY = { model: { layers: 4, width: 32, hidden: 64 }, optimizer: { kind: "sgd", lr: 0.1 }, batch: 64, steps: 30, seed: 3 };
// A difference that only rounding makes, stated as the power of ten below which it lies.
const below = (x) => formatNumber(10 ** Math.ceil(Math.log10(Math.max(x, 1e-300))));
// Many numbers read one experiment or one priced step: each is computed once per core (the calc Worker computes
// every number of the page; recomputing the same shard experiment and steps for each took most of its time).
const memo = new WeakMap();
const once = (core, key, f) => {
  if (!memo.has(core)) memo.set(core, new Map());
  const seen = memo.get(core);
  if (!seen.has(key)) seen.set(key, f());
  return seen.get(key);
};
const equalShards = (core, P) => once(core, `shards/${P}`, () => shardExperiment(core, Array.from({ length: P }, () => EXACT_BATCH / P)));
const unequal = (core) => once(core, "unequal", () => shardExperiment(core, UNEQUAL));
const priced = (core) => once(core, "ddps", () => priceDdps(core));
const overlap = (core, fields) => once(core, `overlap/${JSON.stringify(fields ?? {})}`,
  () => measuredOverlap(core, fields, fields ? undefined : priced(core)));
export const UNEQUAL = [2, 6, 10, 14];
const IB = { alpha: LINKS.infiniband.alpha, beta: LINKS.infiniband.beta };   // the course's InfiniBand (web/hardware.js)

export const CALCS = {
  "exact-B": () => formatCount(EXACT_BATCH),
  "exact-diff": (c) => below(equalShards(c, 8).mean.max),
  "exact-sum": (c) => formatRatio(1 + equalShards(c, 8).sum.relative, { decimals: 0 }),
  "sgd-sum-ratio": (c) => formatRatio(sumVersusMean(c, { kind: "sgd", lr: 0.1 }, equalShards(c, 8).full, 8).ratio, { decimals: 0 }),
  "adam-sum-diff": (c) => formatPercent(sumVersusMean(c, { kind: "adam", lr: 1e-3 }, equalShards(c, 8).full, 8).relative, { digits: 2 }),
  "dp-tc-diff": (c) => below(c.trainCompare({ ...TINY, strategy: "dp", grid: { dp: 8 } }).maxRelativeDifference),
  "ex-psi": () => formatNumber(PSI(EXAMPLE.model) / 1e6),
  "ex-grad-bytes": () => formatBytes(PSI(EXAMPLE.model) * EXAMPLE.elementBytes),
  "ex-compute": (c) => formatSeconds(priced(c).naive.compute),
  "ex-comm": (c) => formatSeconds(comm(priced(c).flat)),
  "ex-naive": (c) => formatSeconds(priced(c).naive.total),
  "ex-tensors": () => String(2 * EXAMPLE.model.layers),
  "ex-naive-comm": (c) => formatSeconds(comm(priced(c).naive)),
  "ex-flat": (c) => formatSeconds(priced(c).flat.total),
  "ex-serial": (c) => formatSeconds(priced(c).serial.total),
  "ex-bucketed": (c) => formatSeconds(priced(c).bucketed.total),
  "ex-exposed": (c) => formatSeconds(priced(c).bucketed.total - priced(c).bucketed.compute),
  "ex-speedup": (c) => formatRatio(priced(c).flat.total / priced(c).bucketed.total, { digits: 2 }),
  // section #partial-overlap, partial overlap: 25 MiB buckets on the example's link, and on InfiniBand-class (α 5 µs, 25 GB/s)
  "po-comm": (c) => formatSeconds(overlap(c).comm),
  "po-o": (c) => formatNumber(overlap(c).o, 3),
  "po-half": (c) => formatSeconds(partialStep(c, overlap(c).compute, overlap(c).comm, 0.5)),
  "po-o-400": (c) => formatNumber(overlap(c, { bucketBytes: 400e6 }).o, 3),
  "po-ib-comm": (c) => formatSeconds(overlap(c, IB).comm),
  "po-ib-cap": (c) => formatNumber(maxOverlap(overlap(c, IB).compute, overlap(c, IB).comm), 3),
  "po-ib-o": (c) => formatNumber(overlap(c, IB).o, 3),
  "po-ib-total": (c) => formatSeconds(overlap(c, IB).total),
  "ex-buckets": (c) => String(new Set(priced(c).bucketed.spans.filter((s) => s.stream === "comm").map((s) => s.label)).size),
  "ex-crossover": (c) => formatBytes(ringBalance(c, 8, { alpha: EXAMPLE.alpha, beta: EXAMPLE.beta, gamma: 0 })),
  "acc-share-1": (c) => formatPercent(accumulationShare(c, 1), { decimals: 0 }),
  "acc-share-8": (c) => formatPercent(accumulationShare(c, 8), { decimals: 1 }),
  "acc-tc-diff": (c) => below(c.trainCompare({ ...TINY, strategy: "dp-accumulate", grid: { dp: 4 }, microBatches: 4 }).maxRelativeDifference),
  "uneq-plain": (c) => formatPercent(unequal(c).mean.relative, { digits: 2 }),
  "uneq-weighted": (c) => below(unequal(c).weighted.max),
  ...CALCS_LARGE_BATCH,   // sections #large-batch … #comm-wall
};
