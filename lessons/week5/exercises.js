// exercises.js — Week 5's exercises as data (format: lessons/web/README.md), in the order of the sections they practise.
// The page renders and checks them; tests/exercises/week5_numeric.test.mjs proves every answer passes and every wrong fails.
//   exercises/pipeline_numeric.js   interleaving's bubble (§ 3), the best m with overhead (§ 5)      (numeric)
//   exercises/scale_numeric.js      ZeRO-3 vs ZeRO-1 bytes for 7B (§ 6) (numeric); a layout for 30B (§ 8) (choice)
//   exercises/interleaved_schedule.js, zero_bubble_schedule.js   an interleaved 1F1B generator (§ 3) and ZB-H1 with
//                                   separate B and W (§ 4), run on Workers (code; judged in tests/exercises/judging.test.mjs)
// The code exercises (a Megatron block, an interleaved generator, ZB-H1, MoE dispatch on Workers) are to come.
import { interleaveBubble, optimalMicroBatches } from "./exercises/pipeline_numeric.js";
import { layoutChoice, zeroBytes } from "./exercises/scale_numeric.js";
import { interleavedSchedule } from "./exercises/interleaved_schedule.js";   // code, on Workers (§ 3)
import { zeroBubbleSchedule } from "./exercises/zero_bubble_schedule.js";    // code, on Workers (§ 4)

export default [
  interleaveBubble,      // w5-interleave
  interleavedSchedule,   // w5-interleaved-schedule
  zeroBubbleSchedule,    // w5-zero-bubble
  optimalMicroBatches,   // w5-optimal-m
  zeroBytes,             // w5-zero-bytes
  layoutChoice,          // w5-layout
];
