// checkpoint_program.js — the data-parallel trainer of Week 6's checkpoint exercise, as the program every Worker runs
// (assembled from the source text of the functions below, after the learner's save/restore), and the same trainer
// run here without failures: the reference the checker compares the run with.
//
// The model is linear regression with input dropout, trained with Adam and a linear learning-rate warm-up on P ranks;
// every step the ranks exchange their gradients and average them in rank order (so every rank, and the reference,
// adds the same numbers in the same order: the results are equal to the bit). A rank's training state is
//   { params, m, v: Float64Array(n) — the weights and Adam's two moments,
//     step: the steps done (Adam's bias correction 1 − β^t and the warm-up read it),
//     data: { cursor: rows of this rank's shard read so far, rng: the dropout generator's state (mulberry32) } }.
// Every `every` steps the program checkpoints (snapshot = save(state), kept in the rank's memory); at each step in
// `failures` the rank is killed — its state is overwritten with NaN, as memory that is gone — and training restarts
// from restore(snapshot).
// A state at step 0, all zeros; the learner may use it in restore.
function emptyState(n) {
  return { params: new Float64Array(n), m: new Float64Array(n), v: new Float64Array(n), step: 0, data: { cursor: 0, rng: 0 } };
}

function freshState(cfg, rank) {
  const state = emptyState(cfg.features);
  state.data.rng = (cfg.seed * 7919 + rank * 104729 + 1) >>> 0;
  return state;
}

// mulberry32, one draw in [0, 1); advances data.rng.
function nextRandom(data) {
  data.rng = (data.rng + 0x6d2b79f5) >>> 0;
  let t = data.rng;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

// This rank's shard of the data set (on disk in a real job: not part of the training state): rows (x, y) with
// y = w*·x + noise, from the case's seed.
function makeShard(cfg, rank) {
  const gen = { rng: (cfg.seed * 31 + rank * 1009 + 7) >>> 0 };
  const u = () => 2 * nextRandom(gen) - 1;
  const truth = Array.from({ length: cfg.features }, (_, j) => Math.sin(cfg.seed + j));
  return Array.from({ length: cfg.rows }, () => {
    const x = Array.from({ length: cfg.features }, u);
    return { x, y: x.reduce((a, xj, j) => a + xj * truth[j], 0) + 0.1 * u() };
  });
}

// The mean-squared-error gradient on the next `batch` rows (cursor advances), with input dropout (keep 3/4, scaled).
function gradient(state, shard, cfg) {
  const n = cfg.features, g = new Float64Array(n);
  for (let b = 0; b < cfg.batch; b++) {
    const row = shard[state.data.cursor % shard.length];
    state.data.cursor += 1;
    const x = row.x.map((xj) => (nextRandom(state.data) < 0.75 ? xj / 0.75 : 0));
    const err = x.reduce((a, xj, j) => a + xj * state.params[j], 0) - row.y;
    for (let j = 0; j < n; j++) g[j] += err * x[j] / cfg.batch;
  }
  return g;
}

// The mean of the ranks' gradients, summed in rank order on every rank.
async function allReduceMean(ctx, g) {
  for (let r = 0; r < ctx.size; r++) if (r !== ctx.rank) ctx.send(r, g);
  const sum = new Float64Array(g.length);
  for (let r = 0; r < ctx.size; r++) {
    const got = r === ctx.rank ? g : await ctx.recv(r);
    for (let j = 0; j < sum.length; j++) sum[j] += got[j];
  }
  return sum.map((s) => s / ctx.size);
}

// Adam with bias correction and a linear warm-up over cfg.warmup steps; step t = state.step + 1.
function adamStep(state, g, cfg) {
  const b1 = 0.9, b2 = 0.999, eps = 1e-8, t = state.step + 1;
  const lr = cfg.lr * Math.min(1, t / cfg.warmup);
  for (let j = 0; j < g.length; j++) {
    state.m[j] = b1 * state.m[j] + (1 - b1) * g[j];
    state.v[j] = b2 * state.v[j] + (1 - b2) * g[j] * g[j];
    state.params[j] -= lr * (state.m[j] / (1 - b1 ** t)) / (Math.sqrt(state.v[j] / (1 - b2 ** t)) + eps);
  }
  state.step = t;
}

// The process dies: everything it held in memory is gone (here: overwritten, so a snapshot that still points at it
// shows NaN).
function kill(state) {
  for (const a of [state.params, state.m, state.v]) a.fill(NaN);
  state.step = NaN;
  state.data.cursor = NaN;
  state.data.rng = NaN;
}

// A restored state as plain numbers, for the checker (whatever shape restore returned).
function reportOf(state) {
  const list = (a) => (a && typeof a.length === "number" ? Array.from(a) : null);
  return { params: list(state?.params), m: list(state?.m), v: list(state?.v), step: state?.step,
           cursor: state?.data?.cursor, rng: state?.data?.rng };
}

async function main(ctx) {
  const cfg = ctx.input, shard = makeShard(cfg, ctx.rank);
  let state = freshState(cfg, ctx.rank), snapshot = save(state), saved = 0;
  const failures = cfg.failures.slice(), restores = [];
  while (state.step < cfg.steps) {
    adamStep(state, await allReduceMean(ctx, gradient(state, shard, cfg)), cfg);
    if (state.step % cfg.every === 0 && state.step > saved) { snapshot = save(state); saved = state.step; }
    if (failures.length && state.step === failures[0]) {
      failures.shift();
      kill(state);
      state = restore(snapshot);
      restores.push({ from: saved, state: reportOf(state) });
      const usable = Number.isInteger(state?.step) && Number.isInteger(state?.data?.cursor) && state?.params?.length === cfg.features;
      if (!usable) return { params: null, restores };   // nothing to train on: the checker says what came back
    }
  }
  return { params: Array.from(state.params), restores };
}

const PARTS = { emptyState, freshState, nextRandom, makeShard, gradient, allReduceMean, adamStep, kill, reportOf, main };

// The program a Worker runs: the learner's save and restore first, then the trainer.
export const checkpointProgram = (learnerCode) => [learnerCode, ...Object.values(PARTS).map((f) => f.toString())].join("\n\n") + "\n";

// The same training without failures, here: the final parameters and every rank's state (reportOf) after each step.
export function referenceRun(cfg, ranks) {
  const shards = Array.from({ length: ranks }, (_, r) => makeShard(cfg, r));
  const states = Array.from({ length: ranks }, (_, r) => freshState(cfg, r));
  const after = [states.map(reportOf)];
  for (let s = 0; s < cfg.steps; s++) {
    const grads = states.map((st, r) => gradient(st, shards[r], cfg));
    const sum = new Float64Array(cfg.features);
    for (const g of grads) for (let j = 0; j < sum.length; j++) sum[j] += g[j];
    const mean = sum.map((x) => x / ranks);
    for (const st of states) adamStep(st, mean, cfg);
    after.push(states.map(reportOf));
  }
  return { params: Array.from(states[0].params), after };
}
