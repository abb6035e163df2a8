// Week 5's load-balancing loss against the real wasm core: the exercise's answer is α·E·Σ f_i·P_i worked
// by hand for every drawn group and passes; the usual mistake (the factor E forgotten) fails for every draw; the
// drawn numbers are what the prompt shows; and the page's example trains as the prose says.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { balanceLoss } from "../../lessons/week5/exercises/moe_balance.js";
import { MOE_BALANCE, balanceSummary, lateDrops, trainBalanced } from "../../lessons/week5/moe_balance_setup.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const drawn = Array.from({ length: 60 }, (_, seed) => balanceLoss.params(mulberry32(seed + 1)));

test("w5-balance-loss: the answer is α·E·Σ f_i·P_i and passes; α·Σ f_i·P_i fails, for every draw", () => {
  const seen = new Set();
  for (const p of drawn) {
    seen.add(JSON.stringify(p));
    assert.equal(p.counts.reduce((a, b) => a + b, 0), p.tokens, JSON.stringify(p));
    assert.equal(p.hundredths.reduce((a, b) => a + b, 0), 100, JSON.stringify(p));
    assert.ok(p.counts.every((c) => c >= 0) && p.hundredths.every((h) => h >= 1), JSON.stringify(p));
    const byHand = 0.01 * p.experts * p.counts.reduce((s, c, i) => s + (c / p.tokens) * (p.hundredths[i] / 100), 0);
    const want = balanceLoss.answer(p, core);
    assert.ok(Math.abs(want - byHand) <= 1e-12 * byHand, `${want} vs ${byHand}`);
    assert.ok(withinTolerance(want, want, balanceLoss.tolerance));
    assert.ok(!withinTolerance(balanceLoss.wrongAnswer(p, core), want, balanceLoss.tolerance), JSON.stringify(p));
    const prompt = balanceLoss.prompt(p);
    for (const c of p.counts) assert.ok(prompt.includes(`: ${c}`), `count ${c} shown`);
    for (const h of p.hundredths) assert.ok(prompt.includes((h / 100).toFixed(2)), `P ${h / 100} shown`);
  }
  assert.ok(seen.size > 40, `parameters hardly vary (${seen.size} distinct)`);
});

test("moeBalanceLoss: balanced costs α, collapsed α·E; bad input is named", () => {
  assert.ok(Math.abs(core.moeBalanceLoss(0.01, [0.25, 0.25, 0.25, 0.25], [0.25, 0.25, 0.25, 0.25]) - 0.01) < 1e-15);
  assert.ok(Math.abs(core.moeBalanceLoss(0.01, [1, 0, 0, 0], [1, 0, 0, 0]) - 0.04) < 1e-15);
  assert.throws(() => core.moeBalanceLoss(0.01, [0.5, 0.5], [1, 0, 0]), /one f and one P per expert/);
  assert.throws(() => core.moeBalanceLoss(0.01, [0.5, 0.6], [0.5, 0.5]), /must each sum to 1/);
  assert.throws(() => core.moeBalanceLoss(-1, [1], [1]), /coefficient must be >= 0/);
});

test("the page's example: Switch's α = 0.01 drops fewer assignments late in training, and the fit is no worse", () => {
  const off = trainBalanced(core, 0), on = trainBalanced(core, 0.01);
  assert.equal(on.dropped.length, MOE_BALANCE.steps);
  assert.equal(on.assignments, MOE_BALANCE.batch * MOE_BALANCE.moe.topK);
  assert.ok(lateDrops(off).share > 0.2, `without: ${lateDrops(off).share}`);
  assert.ok(lateDrops(on).dropped < 0.8 * lateDrops(off).dropped, `${lateDrops(on).dropped} vs ${lateDrops(off).dropped}`);
  assert.ok(on.losses.at(-1) < 1.1 * off.losses.at(-1));
  assert.equal(off.balanceLosses.at(-1), 0);
  assert.throws(() => core.trainMoeBalanced({ ...MOE_BALANCE, moe: { ...MOE_BALANCE.moe, balance: -1 } }),
    /trainMoeBalanced: the load-balancing coefficient must be >= 0/);
});

test("the moe-balance widget's summary says what its own runs show, for every α it offers", () => {
  // Hand-made runs: fewer, more and as many drops with the loss; growing and shrinking drops without it.
  const run = (first, last) => ({ dropped: [...Array(20).fill(first), ...Array(20).fill(last)] });
  assert.equal(balanceSummary(run(1, 3), run(1, 2), "0.01"),
    "Without the loss the drops grow as training goes on; with α = 0.01 they are fewer (40 against 60 over the last 20 steps).");
  assert.match(balanceSummary(run(3, 1), run(0, 2), "0.001"),
    /^Without the loss the drops shrink somewhat as training goes on; with α = 0\.001 they are more, not fewer \(40 against 20/);
  assert.match(balanceSummary(run(2, 2), run(2, 2), "1"), /the drops stay level; with α = 1 they are as many \(40 over/);
  assert.match(balanceSummary(run(20, 20), { dropped: [...Array(20).fill(1), ...Array(19).fill(20), 1] }, "0.001"),
    /with α = 0\.001 they are about as many \(381 against 400 over the last 20 steps\): this α is too weak/);
  // The real runs: the sentence's comparison is the one the numbers make.
  const without = trainBalanced(core, 0);
  for (const alpha of ["0.001", "0.01", "0.1", "1"]) {
    const withLoss = trainBalanced(core, Number(alpha));
    const off = without.dropped.slice(-20).reduce((a, b) => a + b, 0), on = withLoss.dropped.slice(-20).reduce((a, b) => a + b, 0);
    const text = balanceSummary(without, withLoss, alpha);
    const near = Math.abs(on - off) <= 0.05 * off;
    assert.match(text, near ? /they are (about )?as many/ : on < off ? /they are fewer/ : /they are more, not fewer/, `α = ${alpha}: ${text}`);
    assert.ok(text.includes(String(on)), `α = ${alpha}: ${text}`);
  }
});
