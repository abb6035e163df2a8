// exercises.js — Week 1's exercises as data (format: web/README.md), warm-up first,
// implementation last. The page (web/exercise/exercise.js) renders and checks them; tests/exercises/ proves every
// reference answer and solution passes and every `wrong` / wrongAnswer fails. One file per topic:
//   exercises/cost_model.js    n*, bucketing, the iron law, predicting the simulator   (numeric, predict)
//   exercises/consensus.js     why training needs collectives, not consensus           (choice)
//   exercises/scaling_laws.js  Amdahl backwards and its ceiling                        (numeric)
//   exercises/ping_pong.js, token_ring.js, bsp_superstep.js                            (code on Workers)
import { bucketing, crossover, ironLaw, predictSim } from "./exercises/cost_model.js";
import { consensus } from "./exercises/consensus.js";
import { amdahlCeiling, amdahlFraction } from "./exercises/scaling_laws.js";
import { pingPong } from "./exercises/ping_pong.js";
import { tokenRing } from "./exercises/token_ring.js";
import { bspStep } from "./exercises/bsp_superstep.js";

export default [
  crossover, bucketing, consensus, amdahlFraction, amdahlCeiling,   // warm-up: numbers and a choice
  ironLaw, predictSim,                                              // predict, then run
  pingPong, tokenRing, bspStep,                                     // implementation: code on the Workers
];
