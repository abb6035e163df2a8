// exercises.js — Week 4's exercises as data (format: lessons/web/README.md), in the order of the sections they
// practise. The page renders and checks them; tests/exercises/week4_exercises.test.mjs proves every reference passes
// and every wrong answer fails. (The code exercises on the Worker parameter server come with its section.)
//   exercises/ps_numeric.js     w4-barrier     the straggler barrier, m·H_P                 (numeric)  § 1
//                               w4-servers     shards until the servers are no bottleneck  (numeric)  § 2
//                               w4-ssp-stall   SSP's stall with a persistent straggler     (numeric)  § 4
//                               w4-backup      E[P-th of P + b]                            (numeric)  § 5
//                               w4-hogwild     Hogwild!'s collision rate                    (numeric)  § 6
//   exercises/regime_choice.js  w4-regime      one worker in ten is 4× slow, dense          (choice)   § 4–6
import { backup, barrier, hogwildCollision, servers, sspStall } from "./exercises/ps_numeric.js";
import { regimeChoice } from "./exercises/regime_choice.js";

export default [
  barrier,            // w4-barrier
  servers,            // w4-servers
  sspStall,           // w4-ssp-stall
  backup,             // w4-backup
  hogwildCollision,   // w4-hogwild
  regimeChoice,       // w4-regime
];
