// large_batch_setup.js — Week 3's large-batch experiment in one place, so the prose (calcs_large_batch.js), the
// widget (widgets/large_batch.js) and the exercise (exercises/scaling_numeric.js) run the same thing.
//
// The task: the course's teacher–student MLP (L = 4 blocks, D = 16, F = 64). P data-parallel ranks of 16 rows
// each (global batch 16·P) see the same 3,200 samples in all, so P = 8 takes 25 steps where P = 1 takes 200 —
// the large-batch bargain: fewer, bigger steps. Each optimizer starts from its best rate at P = 1 (BASE, measured
// by the sweep below) and scales it by the linear rule lr = base·P (Goyal et al. 2017), with or without a linear
// warm-up over the first 20% of the samples, lr_t = lr·min(1, (t + 1)/w).
// LARS (You, Gitman & Ginsburg 2017) uses trust coefficient η = 0.01; LAMB (You et al. 2019) its own ratio.
export const MODEL = { layers: 4, width: 16, hidden: 64 };
export const LOCAL_BATCH = 16;
export const SAMPLES = 3200;
export const DEVICES = [1, 2, 4, 8];
export const TRUST = 0.01;
export const WARMUP_FRACTION = 0.2;
export const OPTIMIZERS = [["sgd", "SGD"], ["adam", "Adam"], ["lars", "LARS"], ["lamb", "LAMB"]];
// The learning-rate sweep of each optimizer (SGD's is the syllabus's {0.02, 0.1, 0.4, 0.9}).
export const SWEEPS = { sgd: [0.02, 0.1, 0.4, 0.9], adam: [0.001, 0.003, 0.01, 0.03], lars: [0.1, 0.4, 0.9, 2],
  lamb: [0.001, 0.003, 0.01, 0.03] };
// The best rate of each at P = 1 among a finer sweep (bestRate checks it; the page test runs it).
export const FINE_SWEEPS = { sgd: [0.05, 0.1, 0.15, 0.2, 0.3], adam: [0.001, 0.003, 0.01, 0.03], lars: [0.1, 0.2, 0.4, 0.9, 2],
  lamb: [0.001, 0.003, 0.01, 0.03] };
export const BASE = { sgd: 0.15, adam: 0.01, lars: 0.4, lamb: 0.01 };

export const stepsAt = (ranks) => SAMPLES / (LOCAL_BATCH * ranks);
export const warmupSteps = (ranks) => Math.round(WARMUP_FRACTION * stepsAt(ranks));

// One run: P ranks of data parallelism (trainCompare, checked against the single device), `lr` as given.
export function train(core, { optimizer, lr, ranks, warmup = false, seed = 0 }) {
  return core.trainCompare({
    strategy: ranks > 1 ? "dp" : "single", grid: { dp: ranks }, model: MODEL, batch: LOCAL_BATCH * ranks,
    steps: stepsAt(ranks), seed,
    optimizer: { kind: optimizer, lr, warmupSteps: warmup ? warmupSteps(ranks) : 0, trustCoefficient: TRUST },
  });
}

// The mean loss of the last 5 steps; Infinity for a run that diverged (its divergedAt ≥ 0).
export function finalLoss(run) {
  if (run.divergedAt >= 0) return Infinity;
  const tail = Array.from(run.losses.slice(-5));
  return tail.reduce((a, b) => a + b, 0) / tail.length;
}

// The linear scaling rule from the P = 1 optimum: lr = BASE·P.
export const scaled = (core, optimizer, ranks, warmup, seed = 0) =>
  train(core, { optimizer, lr: BASE[optimizer] * ranks, ranks, warmup, seed });

// The rate of FINE_SWEEPS[optimizer] with the lowest final loss at P = 1.
export function bestRate(core, optimizer) {
  const losses = FINE_SWEEPS[optimizer].map((lr) => finalLoss(train(core, { optimizer, lr, ranks: 1 })));
  return FINE_SWEEPS[optimizer][losses.indexOf(Math.min(...losses))];
}

// The widget's sweep, run off the main thread (web/lesson/core_tasks.js): every rate of SWEEPS[optimizer] at P
// ranks, and the trust ratios of the linearly scaled run (LARS, LAMB).
export function sweep(core, optimizer, ranks, warmup) {
  const runs = SWEEPS[optimizer].map((lr) => ({ lr, run: train(core, { optimizer, lr, ranks, warmup }) }));
  const ratios = optimizer === "lars" || optimizer === "lamb" ? scaled(core, optimizer, ranks, warmup).trustRatios : [];
  return { runs, ratios };
}

// The linear-scaling experiment: [optimizer][warm-up off, on][P] final losses (OPTIMIZERS × DEVICES).
export function scalingTable(core) {
  return OPTIMIZERS.map(([k]) => [false, true].map((w) => DEVICES.map((p) => finalLoss(scaled(core, k, p, w)))));
}
