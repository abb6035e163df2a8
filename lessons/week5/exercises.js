// exercises.js — Week 5's exercises as data (format: web/README.md), in the order of the sections they practise.
// The page renders and checks them; tests/exercises/week5_numeric.test.mjs proves every answer passes and every wrong fails.
//   exercises/pipeline_numeric.js   interleaving's bubble (#interleaved), the best m with overhead (#micro-batches)      (numeric)
//   exercises/scale_numeric.js      ZeRO-3 vs ZeRO-1 bytes for 7B (#zero) (numeric); a layout for 30B (#design) (choice)
//   exercises/megatron_block.js     a Megatron block from a split that all-gathers (#tensor)                (code, Workers)
//   exercises/interleaved_schedule.js  an interleaved 1F1B generator (#interleaved)                             (code, Workers)
//   exercises/zero_bubble_schedule.js  ZB-H1 with separate B and W kernels (#zero-bubble)                      (code, Workers)
//   exercises/moe_dispatch.js       MoE all-to-all dispatch and combine (#experts)                          (code, Workers)
//   exercises/moe_balance.js        Switch's load-balancing loss for a drawn group (#experts)               (numeric)
import { interleaveBubble, optimalMicroBatches } from "./exercises/pipeline_numeric.js";
import { layoutChoice, zeroBytes } from "./exercises/scale_numeric.js";
import { megatronBlock } from "./exercises/megatron_block.js";
import { interleavedSchedule } from "./exercises/interleaved_schedule.js";
import { zeroBubbleSchedule } from "./exercises/zero_bubble_schedule.js";
import { moeDispatch } from "./exercises/moe_dispatch.js";
import { balanceLoss } from "./exercises/moe_balance.js";

export default [
  megatronBlock, interleaveBubble, interleavedSchedule, zeroBubbleSchedule, optimalMicroBatches,   // #tensor … #micro-batches
  zeroBytes, moeDispatch, layoutChoice, balanceLoss,                                                // #zero … #design
];
