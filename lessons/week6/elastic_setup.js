// elastic_setup.js — Week 6's elastic runs: data parallelism whose world shrinks and grows mid-run, beside one device
// on the same batches (core.trainElastic, elastic.h). A function of the core returning plain values, so the widget
// can run it in a Worker (web/lesson/core_tasks.js).

// A 2-block MLP (D = 8, F = 32), global batch B = 24 kept whatever P is, Adam, 40 steps; the world changes at steps 10
// and 25. A crash (instead of a graceful leave) hits during step 10; checkpoints every `checkpointEvery` steps.
export const ELASTIC = Object.freeze({ model: Object.freeze({ layers: 2, width: 8, hidden: 32 }), batch: 24, steps: 40,
  seed: 0, optimizer: Object.freeze({ kind: "adam", lr: 0.01 }), dropAt: 10, rejoinAt: 25, checkpointEvery: 4 });

// P workers; k leave after step dropAt − 1 (crash: they fail during step dropAt, handing nothing over); with rejoin,
// they come back at rejoinAt. Returns the run, or the core's error message when the world cannot train the same
// batches (P − k does not divide B).
export function elasticRun(core, { workers = 4, drop = 2, rejoin = true, replicated = false, crash = false,
  checkpointEvery = ELASTIC.checkpointEvery } = {}) {
  const changes = [];
  if (drop > 0) changes.push({ step: ELASTIC.dropAt, workers: workers - drop, crash });
  if (drop > 0 && rejoin) changes.push({ step: ELASTIC.rejoinAt, workers });
  try {
    const r = core.trainElastic({ model: ELASTIC.model, optimizer: { ...ELASTIC.optimizer }, batch: ELASTIC.batch,
      steps: ELASTIC.steps, seed: ELASTIC.seed, workers, changes, replicated, checkpointInterval: checkpointEvery });
    return { error: null, workers: Array.from(r.workers), losses: Array.from(r.losses), single: Array.from(r.singleLosses),
      maxRelativeDifference: r.maxRelativeDifference, stepBytes: Array.from(r.stepBytes),
      resizes: r.resizes.map((e) => ({ ...e })) };
  } catch (err) {
    return { error: err.message };
  }
}
