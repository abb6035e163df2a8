// exercises.js — Week 6's exercises as data (format: lessons/web/README.md), in the order of the sections they
// practise. The page renders and checks them; tests/exercises/week6_exercises.test.mjs proves every reference passes
// and every wrong answer fails. (The code exercises on Workers — rebuilding the ring, checkpoint/restore, top-k with
// error feedback in an all-gather, 8-bit stochastic quantization — come with the live failure injection.)
//   exercises/checkpoint_numeric.js   w6-fleet       the fleet's MTBF m/N                   (numeric)  § 1
//                                     w6-young       Young's √(2δM)                          (numeric)  § 2
//                                     w6-daly        Daly's higher-order τ*                  (numeric)  § 2
//   exercises/compression_numeric.js  w6-topk-bytes  top-k's bytes per step, by all-gather   (numeric)  § 4
//   exercises/ring_choice.js          w6-ring        which compressors ride a ring           (choice)   § 4
import { daly, fleet, young } from "./exercises/checkpoint_numeric.js";
import { topkBytes } from "./exercises/compression_numeric.js";
import { ringChoice } from "./exercises/ring_choice.js";

export default [
  fleet,       // w6-fleet
  young,       // w6-young
  daly,        // w6-daly
  topkBytes,   // w6-topk-bytes
  ringChoice,  // w6-ring
];
