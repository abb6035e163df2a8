// exercises.js — Week 6's exercises as data (format: web/README.md), in the order of the sections they
// practise. The page renders and checks them; tests/exercises/week6_exercises.test.mjs proves every reference passes
// and every wrong answer fails; tests/exercises/week6_code.test.mjs and judging.test.mjs judge the code exercises (run
// on the Workers: the reference passes, every wrong program fails with its message).
//   exercises/checkpoint_numeric.js   w6-fleet       the fleet's MTBF m/N                   (numeric)  #failures
//                                     w6-young       Young's √(2δM)                          (numeric)  #checkpointing
//                                     w6-daly        Daly's higher-order τ*                  (numeric)  #checkpointing
//   exercises/compression_numeric.js  w6-topk-bytes  top-k's bytes per step, by all-gather   (numeric)  #compression
//   exercises/ring_choice.js          w6-ring        which compressors ride a ring           (choice)   #compression
//   exercises/checkpoint_restore.js   w6-checkpoint  save/restore a rank's training state    (code)     #checkpointing
//   exercises/elastic_ring.js         w6-elastic-ring rebuild the ring after losing 2 ranks  (code)     #elastic
//   exercises/elastic_crash.js        w6-crash-redo  steps recomputed after a ZeRO-1 crash    (numeric)  #elastic
//   exercises/topk_allgather.js       w6-topk-ef     top-k + error feedback by all-gather    (code)     #compression
//   exercises/quantize_int8.js        w6-int8        8-bit stochastic quantization           (code)     #compression
//   exercises/time_to_target.js       w6-best-p      the fastest P of a time-to-target sweep  (numeric)  capstone
import { daly, fleet, young } from "./exercises/checkpoint_numeric.js";
import { topkBytes } from "./exercises/compression_numeric.js";
import { ringChoice } from "./exercises/ring_choice.js";
import { checkpointRestore } from "./exercises/checkpoint_restore.js";
import { elasticRing } from "./exercises/elastic_ring.js";
import { topkAllgather } from "./exercises/topk_allgather.js";
import { quantizeInt8 } from "./exercises/quantize_int8.js";
import { crashRedo } from "./exercises/elastic_crash.js";
import { bestP } from "./exercises/time_to_target.js";

export default [
  fleet,       // w6-fleet
  young,       // w6-young
  daly,        // w6-daly
  checkpointRestore,   // w6-checkpoint
  elasticRing,         // w6-elastic-ring
  crashRedo,   // w6-crash-redo
  topkBytes,   // w6-topk-bytes
  ringChoice,  // w6-ring
  topkAllgather,       // w6-topk-ef
  quantizeInt8,        // w6-int8
  bestP,       // w6-best-p
];
