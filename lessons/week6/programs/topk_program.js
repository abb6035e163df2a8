// topk_program.js — the data-parallel trainer of Week 6's top-k exercise, as the program every Worker runs (the
// learner's topkExchange first, then the functions below as source text), and the same training here: with the
// reference top-k + error feedback (what a correct run computes, step by step) and uncompressed (what it is compared
// with for convergence).
//
// Linear regression on P ranks with plain SGD. Each step a rank computes its gradient g on its next rows and calls
// topkExchange(ctx, g, residual, k): compress v = g + e to its k largest |v_i| (indices and values), all-gather every
// rank's pairs, return their dense sum; the residual keeps e ← v − C(v). The trainer then steps θ ← θ − η·sum/P.
// A message is one Float64Array of 2k numbers: k indices, then their k values (16k bytes).
import { seededRandom } from "./seeded_random.js";

function topkRows(cfg, rank) {
  const next = seededRandom(cfg.seed * 131 + rank * 7919 + 3), u = () => 2 * next() - 1;
  const truth = Array.from({ length: cfg.features }, (_, j) => Math.cos(cfg.seed + 3 * j) * (1 + (j % 3)));
  return Array.from({ length: cfg.rows }, () => {
    const x = Array.from({ length: cfg.features }, u);
    return { x, y: x.reduce((a, xj, j) => a + xj * truth[j], 0) + 0.05 * u() };
  });
}

// The mean-squared-error gradient of step t: rows t·B … t·B + B − 1 of the shard (wrapping).
function topkGradient(params, rows, t, cfg) {
  const g = new Float64Array(cfg.features);
  for (let b = 0; b < cfg.batch; b++) {
    const { x, y } = rows[(t * cfg.batch + b) % rows.length];
    const err = x.reduce((a, xj, j) => a + xj * params[j], 0) - y;
    for (let j = 0; j < g.length; j++) g[j] += err * x[j] / cfg.batch;
  }
  return g;
}

async function main(ctx) {
  const cfg = ctx.input, rows = topkRows(cfg, ctx.rank);
  const params = new Float64Array(cfg.features), residual = new Float64Array(cfg.features);
  const residuals = [], history = [];
  for (let t = 0; t < cfg.steps; t++) {
    const sum = await topkExchange(ctx, topkGradient(params, rows, t, cfg), residual, cfg.k);
    for (let j = 0; j < params.length; j++) params[j] -= cfg.lr * sum[j] / ctx.size;
    residuals.push(Array.from(residual));
    history.push(Array.from(params));
  }
  return { params: Array.from(params), residuals, history };
}

export const topkProgram = (learnerCode) => [learnerCode, seededRandom, topkRows, topkGradient, main].map(String).join("\n\n") + "\n";

// The k largest |v_i| (ties: the lower index), in index order.
export function topIndices(v, k) {
  return [...v.keys()].sort((a, b) => Math.abs(v[b]) - Math.abs(v[a]) || a - b).slice(0, k).sort((a, b) => a - b);
}

// The training here. compressed: top-k + error feedback (per rank: v = g + e, send top-k of v, e ← v − C(v));
// otherwise the full gradient. → { params, history: [step] θ after it, residuals: [rank][step] (compressed),
// before: [rank][step] { g, e } }.
export function topkReference(cfg, ranks, { compressed = true } = {}) {
  const rows = Array.from({ length: ranks }, (_, r) => topkRows(cfg, r));
  const params = new Float64Array(cfg.features);
  const e = Array.from({ length: ranks }, () => new Float64Array(cfg.features));
  const residuals = e.map(() => []), before = e.map(() => []), history = [];
  for (let t = 0; t < cfg.steps; t++) {
    const sum = new Float64Array(cfg.features);
    for (let r = 0; r < ranks; r++) {
      const g = topkGradient(params, rows[r], t, cfg);
      before[r].push({ g: Array.from(g), e: Array.from(e[r]) });
      if (!compressed) { g.forEach((x, j) => { sum[j] += x; }); continue; }
      const v = g.map((x, j) => x + e[r][j]);
      const sent = new Set(topIndices(v, cfg.k));
      for (let j = 0; j < v.length; j++) {
        if (sent.has(j)) { sum[j] += v[j]; e[r][j] = 0; } else e[r][j] = v[j];
      }
      residuals[r].push(Array.from(e[r]));
    }
    for (let j = 0; j < params.length; j++) params[j] -= cfg.lr * sum[j] / ranks;
    history.push(Array.from(params));
  }
  return { params: Array.from(params), history, residuals, before };
}

// The mean squared error of θ over every rank's rows.
export function topkLoss(cfg, ranks, params) {
  const all = Array.from({ length: ranks }, (_, r) => topkRows(cfg, r)).flat();
  return all.reduce((a, { x, y }) => a + (x.reduce((s, xj, j) => s + xj * params[j], 0) - y) ** 2, 0) / (2 * all.length);
}
