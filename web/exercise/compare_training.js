// compare_training.js — how a distributed run is compared with single-device training, one definition for every
// page, checker and test (Week 3's DP trainer, Week 5's pipeline, the lab): the parameters' relative distance and
// the loss curve read from the ranks' progress reports.

// Per tensor ‖a − b‖ / ‖b‖ (‖a − b‖ when b is all zeros), the largest over the tensors — the strategy tests'
// measure. `params` and `reference` are lists of tensors (arrays of numbers) in the same order.
export function maxRelativeDifference(params, reference) {
  let worst = 0;
  params.forEach((a, i) => {
    const b = reference[i];
    let num = 0, den = 0;
    for (let e = 0; e < b.length; e++) { num += (a[e] - b[e]) ** 2; den += b[e] ** 2; }
    worst = Math.max(worst, Math.sqrt(num) / (Math.sqrt(den) || 1));
  });
  return worst;
}

// The global loss of each of `steps` steps from RunResult.progress (one list per rank of { step, loss, rows? }):
// the reports of a step averaged, each weighted by the rows it covers (1 when it does not say) — the mean over
// the global batch when replicas hold unequal shares. NaN for a step nobody reported.
export function lossesFromProgress(progress, steps) {
  const sums = new Float64Array(steps), rows = new Float64Array(steps);
  for (const values of progress) {
    for (const { step, loss, rows: n = 1 } of values) { sums[step] += n * loss; rows[step] += n; }
  }
  return Array.from(sums, (s, i) => (rows[i] ? s / rows[i] : NaN));
}
