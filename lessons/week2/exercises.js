// exercises.js — Week 2's exercises as data (format: web/README.md), warm-up first,
// implementation last. The page (web/exercise/exercise.js) renders and checks them; tests/exercises/ proves every
// reference answer and solution passes and every `wrong` / wrongAnswer fails. One file per topic:
//   exercises/primitives.js          what each collective promises, where ML uses it       (choice)
//   exercises/cost_formulas.js       ring time, ring vs recursive doubling, pipelined
//                                    broadcast, bus bandwidth                               (numeric)
//   exercises/choose_algorithm.js    which all-reduce wins, small vs large                  (choice)
//   exercises/lower_bounds.js        what the bounds say and who meets them                 (choice)
//   exercises/topology.js            a flat ring across nodes × GPUs, simulated             (numeric)
//   exercises/pipeline_segments.js   the best number of segments of a pipelined chain       (numeric)
//   exercises/ring_allreduce.js, allgather_doubling.js, reduce_scatter_halving.js         (code on Workers)
// Shared checker pieces: web/exercise/collective_checks.js (and Week 1's params.js, run_checks.js).
import { primitives } from "./exercises/primitives.js";
import { busBandwidth, crossover, pipelinedBroadcast, ringTime } from "./exercises/cost_formulas.js";
import { fastestAllreduce } from "./exercises/choose_algorithm.js";
import { lowerBounds } from "./exercises/lower_bounds.js";
import { hierarchicalRing } from "./exercises/topology.js";
import { ringAllreduce } from "./exercises/ring_allreduce.js";
import { allgatherDoubling } from "./exercises/allgather_doubling.js";
import { reduceScatterHalving } from "./exercises/reduce_scatter_halving.js";
import { bestSegments } from "./exercises/pipeline_segments.js";

export default [
  primitives,             // w2-primitives
  ringTime,               // w2-ring-time
  fastestAllreduce,       // w2-fastest
  crossover,              // w2-crossover
  pipelinedBroadcast,     // w2-pipeline
  lowerBounds,            // w2-lower-bound
  hierarchicalRing,       // w2-hierarchical
  busBandwidth,           // w2-busbw
  ringAllreduce,          // w2-ring-allreduce
  allgatherDoubling,      // w2-allgather-rd
  reduceScatterHalving,   // w2-reduce-scatter-rh
  bestSegments,           // w2-best-segments
];
