// exercises.js — the planner page's exercises as data (format: web/README.md), in the order of the sections they
// practise; tests/exercises/planner_exercises.test.mjs proves every reference passes and every wrong answer fails.
//   exercises/planner_numeric.js  planner-smallest-p  the smallest p that fits at t = 8   (numeric)  § fit
//                                 planner-mfu         MFU of a published layout           (numeric)  § published
//                                 planner-faster      the faster of two layouts           (numeric)  § plan
//                                 planner-double-d    MFU when d doubles at a fixed batch (numeric)  § plan
import { doubleD, faster, mfu, smallestP } from "./exercises/planner_numeric.js";

export default [smallestP, mfu, faster, doubleD];
