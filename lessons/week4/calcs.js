// calcs.js — every number in Week 4's prose, computed by the core (keys match data-calc in index.html, whose header
// comment lists the formulas). The page test checks each against the value printed in the HTML. Units: seconds,
// bytes (SI), fractions written as percentages. Scenarios: ps_setup.js.
import { formatBytes, formatCount, formatNumber, formatPercent, formatRatio, formatSeconds } from "../../web/units.js";
import { WORKERS_DEMO, demoSpeed, psConfig, simulateRun } from "./programs/ps_program.js";
import { ETHERNET, STRAGGLER_SPEEDS, absorbSpeed, backupRound, consistencyReads, hogwildGrid, psRound, serversToBalance,
  sspAbsorb, sspStallReadings, sspTradeoff, staleRun, stragglerRounds } from "./ps_setup.js";

const EXP = (multipliers) => ({ distribution: "exponential", multipliers });
const PS = { workers: 8, parameters: 25e6 };   // a 100 MB model (25 M fp32 values) on 8 workers
const once = (f) => { let v; return (core) => (v ??= f(core)); };
const straggling = once((c) => stragglerRounds(c));
const fixedRounds = once((c) => stragglerRounds(c, { distribution: "fixed" }));
const ssp = once((c) => ({ fixed: sspTradeoff(c, { bounds: [0, 16] }), noisy: sspTradeoff(c, { distribution: "exponential", bounds: [0, 16] }) }));
const stale = once((c) => ({ 0: staleRun(c, { tau: 0 }), 2: staleRun(c, { tau: 2 }), 8: staleRun(c, { tau: 8 }),
  20: staleRun(c, { tau: 20 }), aware: staleRun(c, { tau: 20, aware: true }) }));
const diverged = (r) => r.updates[r.loss.findIndex((l) => !(l <= 10))];
const hog = once((c) => ({ k10: hogwildGrid(c, { sparsity: 0.01 }), k1: hogwildGrid(c, { sparsity: 0.001 }),
  plain: hogwildGrid(c, { sparsity: 0.1, atomic: false }) }));
const reads = once((c) => consistencyReads(c));
const absorb = once((c) => ({ fixed: sspAbsorb(c, { mode: "fixed" }), perRound: sspAbsorb(c) }));
const demo = once((c) => {
  const { workers, slow, fields } = WORKERS_DEMO, speed = demoSpeed(workers, slow);
  return simulateRun(c, psConfig(c, fields, workers, speed), workers, speed);
});

export const CALCS = {
  // 1. stragglers
  "h6": (c) => formatNumber(c.harmonicNumber(6)),
  "emax-equal": (c) => formatSeconds(c.expectedMaxExponential(6, 1)),
  "emax-1000": (c) => formatSeconds(c.expectedMaxExponential(1000, 1)),
  "fixed-round": (c) => formatSeconds(c.expectedRoundCompute({ distribution: "fixed", multipliers: STRAGGLER_SPEEDS }, 6, 6)),
  "fixed-stall": (c) => formatPercent(fixedRounds(c).stall, { decimals: 0 }),
  "emax-slow": (c) => formatSeconds(c.expectedRoundCompute(EXP(STRAGGLER_SPEEDS), 6, 6)),
  "sim-slow": (c) => formatSeconds(straggling(c).mean),
  "slow-stall": (c) => formatPercent(straggling(c).stall, { decimals: 0 }),
  // 2. the parameter server
  "ps-bytes": (c) => formatBytes(c.psBandwidth(ETHERNET, PS.workers, 1, 4 * PS.parameters).serverBytes),
  "ps-server-s": (c) => formatSeconds(c.psBandwidth(ETHERNET, PS.workers, 1, 4 * PS.parameters).serverSeconds),
  "ps-worker-s": (c) => formatSeconds(c.psBandwidth(ETHERNET, PS.workers, 1, 4 * PS.parameters).workerSeconds),
  "ps-kstar": (c) => String(serversToBalance(c, PS.workers, PS.parameters)),
  "ps-round-1": (c) => formatSeconds(psRound(c, { ...PS, servers: 1 }).round),
  "ps-round-8": (c) => formatSeconds(psRound(c, { ...PS, servers: 8 }).round),
  "ps-busy-1": (c) => formatSeconds(psRound(c, { ...PS, servers: 1 }).busiest.busy),
  // 3. staleness
  "stale-0": (c) => formatNumber(stale(c)[0].finalLoss),
  "stale-2": (c) => formatNumber(stale(c)[2].finalLoss),
  "stale-8": (c) => formatNumber(stale(c)[8].finalLoss),
  "stale-20-div": (c) => formatNumber(diverged(stale(c)[20])),
  "stale-20-aware": (c) => formatNumber(stale(c).aware.finalLoss),
  // 4. SSP
  "ssp-fixed-0": (c) => formatPercent(ssp(c).fixed[0].stall, { decimals: 0 }),
  "ssp-fixed-16": (c) => formatPercent(ssp(c).fixed[1].stall, { decimals: 0 }),
  "ssp-fixed-16-closed": (c) => formatPercent(ssp(c).fixed[1].closed, { decimals: 1 }),
  "ssp-reading-served": (c) => formatPercent(sspStallReadings(c).served, { decimals: 1 }),
  "ssp-reading-computed": (c) => formatPercent(sspStallReadings(c).computed, { decimals: 1 }),
  "ssp-noisy-0": (c) => formatPercent(ssp(c).noisy[0].stall, { decimals: 0 }),
  "ssp-noisy-16": (c) => formatPercent(ssp(c).noisy[1].stall, { decimals: 0 }),
  "ssp-noisy-t0": (c) => formatSeconds(ssp(c).noisy[0].makespan),
  "ssp-noisy-t16": (c) => formatSeconds(ssp(c).noisy[1].makespan),
  // 4 (b). what a bound can absorb: the list fixed per worker or drawn per round
  "absorb-fixed": (c) => formatSeconds(c.sspClockLimits(absorbSpeed("fixed"), 6).unboundedSeconds),
  "absorb-fixed-s64": (c) => formatSeconds(absorb(c).fixed.rows.at(-1).perClock),
  "absorb-barrier": (c) => formatSeconds(c.sspClockLimits(absorbSpeed("per-round"), 6).barrierSeconds),
  "absorb-mean": (c) => formatSeconds(c.sspClockLimits(absorbSpeed("per-round"), 6).unboundedSeconds),
  "absorb-fraction": (c) => formatPercent(c.sspClockLimits(absorbSpeed("per-round"), 6).absorbableFraction, { decimals: 0 }),
  "absorb-s0": (c) => formatSeconds(absorb(c).perRound.rows[0].perClock),
  "absorb-s64": (c) => formatSeconds(absorb(c).perRound.rows.at(-1).perClock),
  // 5. backup workers (P = 8, exponential compute of mean 1 s)
  "bk-0": (c) => formatSeconds(c.expectedOrderStatisticExponential(8, 8, 1)),
  "bk-2": (c) => formatSeconds(c.expectedOrderStatisticExponential(8, 10, 1)),
  "bk-2-sim": (c) => formatSeconds(backupRound(c, { quota: 8, backup: 2 }).mean),
  "bk-speedup": (c) => formatRatio(c.expectedOrderStatisticExponential(8, 8, 1) / c.expectedOrderStatisticExponential(8, 10, 1), { digits: 2 }),
  // 6. Hogwild!
  "hog-pred-16": (c) => formatPercent(hog(c).k10[2].predicted, { decimals: 1 }),
  "hog-meas-16": (c) => formatPercent(hog(c).k10[2].collisionRate, { decimals: 1 }),
  "hog-pred-16-k1": (c) => formatPercent(hog(c).k1[2].predicted, { decimals: 1 }),
  "hog-loss-1": (c) => formatNumber(hog(c).k10[0].finalLoss),
  "hog-loss-16": (c) => formatNumber(hog(c).k10[2].finalLoss),
  "hog-lost-16": (c) => formatCount(hog(c).plain[2].lostWrites),
  "hog-plain-16": (c) => formatNumber(hog(c).plain[2].finalLoss),
  "hog-plain-1": (c) => formatNumber(hog(c).plain[0].finalLoss),
  // 7. consistency models
  "cm-bsp-stall": (c) => formatPercent(reads(c).costs.bsp.stallFraction, { decimals: 0 }),
  "cm-ssp-stall": (c) => formatPercent(reads(c).costs.bounded.stallFraction, { decimals: 0 }),
  "cm-bsp-wait": (c) => formatSeconds(reads(c).reads.at(-1).verdicts.bsp.wait),
  "cm-ryw-wait": (c) => formatSeconds(reads(c).reads[0].verdicts.ryw.wait),
  // 8. a parameter server on the Workers: the simulator on the widget's defaults
  "psw-sim-tau": (c) => formatNumber(demo(c).tau.reduce((a, b) => a + b, 0) / demo(c).tau.length, { digits: 2 }),
  "psw-sim-loss": (c) => formatNumber(demo(c).training.finalLoss, { digits: 3 }),
};
