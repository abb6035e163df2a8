// moe_balance_setup.js — Week 5's load-balancing example (section #experts), shared by the widget "moe-balance", the prose
// numbers (calcs.js) and tests/core/test_moe_balance.cpp (same model, batch, optimizer, steps): the MLP with one MoE
// block of 8 top-1 experts at capacity factor 1, trained on one device with and without Switch's loss.
export const MOE_BALANCE = Object.freeze({
  model: { layers: 2, width: 16, hidden: 32 },
  moe: { experts: 8, topK: 1, capacityFactor: 1.0, every: 2 },
  optimizer: { kind: "adam", lr: 0.01 },
  batch: 64, steps: 100, seed: 1,
});

/** The same run with Switch's coefficient α (0: no balancing loss); core.trainMoeBalanced. */
export const trainBalanced = (core, alpha, base = MOE_BALANCE) =>
  core.trainMoeBalanced({ ...base, moe: { ...base.moe, balance: alpha } });

/** Assignments dropped over the last `last` steps, and their share of what those steps routed. */
export function lateDrops(run, last = 20) {
  const dropped = run.dropped.slice(-last).reduce((a, b) => a + b, 0);
  return { dropped, share: dropped / (last * run.assignments) };
}

/**
 * The widget's chart summary, read off the two runs it draws: whether the drops without the loss grow (the first
 * `last` steps against the last `last`), and whether the run with α drops fewer, as many or more over the last
 * `last` steps. Nothing in it is fixed text that a setting of α could make false.
 */
export function balanceSummary(without, withLoss, alpha, last = 20) {
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  const first = sum(without.dropped.slice(0, last)), late = lateDrops(without, last).dropped;
  const trend = late > first ? "the drops grow as training goes on"
    : late < first ? "the drops shrink somewhat as training goes on" : "the drops stay level";
  const on = lateDrops(withLoss, last).dropped;
  const counts = `(${on} against ${late} over the last ${last} steps)`;
  // Within 5% of each other is "about as many": a difference of a few assignments is no balancing.
  const versus = Math.abs(on - late) <= 0.05 * late
    ? (on === late ? `with α = ${alpha} they are as many (${on} over the last ${last} steps)`
      : `with α = ${alpha} they are about as many ${counts}: this α is too weak to balance the router here`)
    : on < late ? `with α = ${alpha} they are fewer ${counts}`
      : `with α = ${alpha} they are more, not fewer ${counts}`;
  return `Without the loss ${trend}; ${versus}.`;
}
