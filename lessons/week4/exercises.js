// exercises.js — Week 4's exercises as data (format: web/README.md), in the order of the sections they
// practise. The page renders and checks them; tests/exercises/week4_exercises.test.mjs proves every reference passes
// and every wrong answer fails; tests/exercises/judging.test.mjs the same for the code exercises' wrong programs.
//   exercises/ps_numeric.js     w4-barrier     the straggler barrier, m·H_P                 (numeric)  #stragglers
//                               w4-servers     shards until the servers are no bottleneck  (numeric)  #param-server
//                               w4-ssp-stall   SSP's stall with a persistent straggler     (numeric)  #regimes
//                               w4-backup      E[P-th of P + b]                            (numeric)  #backup-workers
//                               w4-hogwild     Hogwild!'s collision rate                    (numeric)  #hogwild
//   exercises/ssp_absorb.js     w4-ssp-absorb  what SSP saves from per-round stragglers     (numeric)  #regimes
//   exercises/regime_choice.js  w4-regime      one worker in ten is 4× slow, dense          (choice)   #regimes … #hogwild
// The code exercises each replace one function of the parameter server on the Workers (programs/, #ps-workers), checked
// by a replay of the run (exercises/ps_checks.js):
//   exercises/key_ranges.js     w4-key-ranges  shard θ over K servers by key range            (code)     #param-server
//   exercises/stale_lr.js       w4-stale-lr    the staleness-aware rate η/(τ + 1)             (code)     #staleness
//   exercises/ssp_gate.js       w4-ssp-gate    SSP's clock check                              (code)     #regimes
//   exercises/backup_round.js   w4-backup-round the first W − b of a round win                (code)     #backup-workers
// Appended: a loader that streams until its trainer says stop, with ctx.probe (its own program, not the server's):
//   exercises/probe_stop.js     w4-probe-stop  look for the stop between batches, never wait  (code)     #probe
import { backup, barrier, hogwildCollision, servers, sspStall } from "./exercises/ps_numeric.js";
import { regimeChoice } from "./exercises/regime_choice.js";
import { keyRangesExercise } from "./exercises/key_ranges.js";
import { staleLr } from "./exercises/stale_lr.js";
import { sspGate } from "./exercises/ssp_gate.js";
import { sspAbsorb } from "./exercises/ssp_absorb.js";
import { backupRound } from "./exercises/backup_round.js";
import { probeStop } from "./exercises/probe_stop.js";

export default [
  barrier, servers, keyRangesExercise, staleLr,       // #stragglers … #staleness: the barrier, the shards, staleness
  sspStall, sspGate, sspAbsorb,                       // #regimes: SSP
  backup, backupRound, hogwildCollision, regimeChoice,   // #backup-workers … #hogwild: backups, Hogwild!, the regimes
  probeStop,                                          // #probe: the loader's probe
];
