// checkpoint_setup.js — the failure and checkpointing scenarios Week 6 runs, in one place so the prose (calcs.js),
// the widgets and the exercises agree. Every function takes the core first and returns plain values, so a widget can
// run it on the page or in a Worker (web/lesson/core_tasks.js runs any export by name).
// The core's calls: core/bindings/dsml.d.ts, "Week 6" (checkpointing.h): checkpointIntervals, firstOrderOverhead,
// expectedWallTime, optimalInterval, fleetMtbf, simulateCheckpointing.

const HOUR = 3600, YEAR = 365 * 24 * HOUR;

// Section #failures: a GPU (with its share of host, NIC and switch) that fails once in five years on average, and a
// 10 000-GPU job. Failures of different GPUs are independent.
export const FLEET = Object.freeze({ nodeMtbf: 5 * YEAR, nodes: 10000 });
export const FLEET_SIZES = [1, 8, 64, 512, 1024, 4096, 10000, 16384, 100000];

// Section #checkpointing: the syllabus's case — a checkpoint takes C = 60 s, the job's (fleet) MTBF is 6 h — for a run that needs
// W = 24 h of computation. A failure is noticed after D = 30 s (heartbeat timeout) and a restart (reload the
// checkpoint, rebuild the communicators) takes R = 5 min.
export const CKPT = Object.freeze({ checkpoint: 60, mtbf: 6 * HOUR, work: 24 * HOUR, restart: 300, detection: 30 });
export const RUNS = 400;   // simulated runs per point (seeds 1 … 400)

// Daly's own cases (his Figs. 3–5): δ = 5 min with M = 24 h, 6 h and 15 min.
export const DALY_CASES = [24 * HOUR, 6 * HOUR, 15 * 60];

// One simulated study: `runs` runs of a job of `work` s, checkpointing every `interval` s, fleet MTBF `mtbf` s.
export function simulate(core, { work = CKPT.work, interval, checkpoint = CKPT.checkpoint, mtbf = CKPT.mtbf,
  restart = CKPT.restart, detection = CKPT.detection, runs = RUNS, seed = 1 }) {
  const s = core.simulateCheckpointing({ work, interval, checkpoint, nodeMtbf: mtbf, nodes: 1, restart,
    heartbeatPeriod: 0, heartbeatTimeout: detection, runs, seed });
  return { meanWall: s.meanWall, ci95: s.ci95, expectedWall: s.expectedWall, meanFailures: s.meanFailures,
    lostWorkPerFailure: s.lostWorkPerFailure };
}

// The closed forms at (C, M): Young's and Daly's τ*, the minimiser of the complete model, and the overhead curves
// over τ (fractions of the work): first order δ/τ + τ/(2M), and T(τ)/W − 1 of the complete model.
export function overheadCurves(core, { checkpoint = CKPT.checkpoint, mtbf = CKPT.mtbf, work = CKPT.work,
  restart = CKPT.restart, detection = CKPT.detection, points = 60 } = {}) {
  const { young, daly } = core.checkpointIntervals(checkpoint, mtbf);
  const optimal = core.optimalInterval({ work, checkpoint, mtbf, restart, detection });
  const lo = Math.max(1, young / 12), hi = Math.min(work, young * 8);
  const taus = Array.from({ length: points }, (_, i) => lo * (hi / lo) ** (i / (points - 1)));
  const complete = (tau) => core.expectedWallTime({ work, interval: tau, checkpoint, mtbf, restart, detection }) / work - 1;
  return {
    young, daly, optimal, taus,
    firstOrder: taus.map((t) => core.firstOrderOverhead(t, checkpoint, mtbf)),
    complete: taus.map(complete),
    at: { young: complete(young), daly: complete(daly), optimal: complete(optimal) },
  };
}

// The closed forms and the simulation side by side at a few intervals (τ*/4 … 4·τ*, plus Young's and Daly's).
export function overheadStudy(core, { checkpoint = CKPT.checkpoint, mtbf = CKPT.mtbf, work = CKPT.work, runs = RUNS } = {}) {
  const curves = overheadCurves(core, { checkpoint, mtbf, work });
  const factors = [0.25, 0.5, 1, 2, 4];
  const sims = factors.map((f) => {
    const interval = Math.min(work, f * curves.young);
    const s = simulate(core, { work, interval, checkpoint, mtbf, runs });
    return { interval, overhead: s.meanWall / work - 1, ci: s.ci95 / work, closed: s.expectedWall / work - 1,
      firstOrder: core.firstOrderOverhead(interval, checkpoint, mtbf), failures: s.meanFailures };
  });
  return { ...curves, sims };
}

// Work done against wall-clock time, with checkpoints every Daly τ* and with none at all (one segment: a failure
// restarts the job from the beginning). Closed form for each amount of work, simulated at a few.
export function progressCurves(core, { checkpoint = CKPT.checkpoint, mtbf = CKPT.mtbf, restart = CKPT.restart,
  detection = CKPT.detection, maxWork = 48 * HOUR, runs = RUNS } = {}) {
  const { daly } = core.checkpointIntervals(checkpoint, mtbf);
  const works = Array.from({ length: 48 }, (_, i) => ((i + 1) / 48) * maxWork);
  const wall = (work, withCheckpoints) => core.expectedWallTime(withCheckpoints
    ? { work, interval: Math.min(daly, work), checkpoint, mtbf, restart, detection }
    : { work, interval: work, checkpoint: 0, mtbf, restart, detection });
  const simulated = [0.25, 0.5, 0.75, 1].map((f) => f * maxWork).map((work) => ({
    work,
    checkpointed: simulate(core, { work, interval: Math.min(daly, work), checkpoint, mtbf, restart, detection, runs }),
    none: simulate(core, { work, interval: work, checkpoint: 0, mtbf, restart, detection, runs: Math.min(runs, 100) }),
  }));
  return {
    daly, works,
    checkpointed: works.map((w) => wall(w, true)),
    none: works.map((w) => wall(w, false)),
    simulated: simulated.map((s) => ({ work: s.work, checkpointed: s.checkpointed.meanWall, checkpointedCi: s.checkpointed.ci95,
      none: s.none.meanWall, noneCi: s.none.ci95 })),
  };
}
