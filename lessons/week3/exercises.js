// exercises.js — Week 3's exercises as data (format: web/README.md), in the order of the sections they
// practise. The page renders and checks them; tests/exercises/ proves every reference passes and every wrong fails.
//   exercises/sum_or_mean.js      summed vs averaged gradients under SGD and Adam         (choice)      #exactness
//   exercises/bucket_size.js      the bucket size where latency stops mattering            (numeric)     #ddp
//   exercises/bucket_reducer.js   DDP's reducer: buckets launched during backward          (code)        #ddp
// Appended (section #partial-overlap): exercises/overlap_fraction.js  the o a bucket size achieves         (numeric)     #partial-overlap
//   exercises/accumulation.js     k micro-steps, one sync                                  (code)        #accumulation
//   exercises/weighted_sync.js    unequal shards: a weighted all-reduce                    (code)        #unequal-shards
// The code exercises run the whole data-parallel trainer (programs/) with the learner's function in it;
// shared checks: exercises/dp_checks.js. Then sections #large-batch … #comm-wall's: large batches, scaling.
import { sumOrMean } from "./exercises/sum_or_mean.js";
import { bucketCrossover } from "./exercises/bucket_size.js";
import { bucketedDdp } from "./exercises/bucket_reducer.js";
import { accumulation } from "./exercises/accumulation.js";
import { weightedSync } from "./exercises/weighted_sync.js";
import { larsTrust } from "./exercises/lars_trust.js";
import { commBoundNumeric, scalingRule, strong64 } from "./exercises/scaling_numeric.js";
import { overlapFraction } from "./exercises/overlap_fraction.js";

export default [
  sumOrMean,          // w3-sum-or-mean
  bucketCrossover,    // w3-bucket-crossover
  bucketedDdp,        // w3-bucketed-ddp
  accumulation,       // w3-accumulate
  weightedSync,       // w3-weighted
  scalingRule,        // w3-scaling-rule
  larsTrust,          // w3-lars-trust
  strong64,           // w3-strong-64
  commBoundNumeric,   // w3-comm-bound
  overlapFraction,    // w3-overlap-fraction
];
