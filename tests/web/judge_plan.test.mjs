// judge_plan.test.mjs — the judging policy as data (web/exercise/judge_plan.js): which runs a Check makes.
//   node --test tests/web/judge_plan.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { JUDGE_DEFAULTS, describeEntry, describePass, judgePlan } from "../../web/exercise/judge_plan.js";
import { exerciseRng, mulberry32 } from "../../web/exercise/random.js";

// A code exercise with two visible cases and two hidden ones; the cases record the rng draws they used.
const exercise = {
  id: "x-demo", kind: "code",
  cases: (rng) => [{ ranks: 2 + Math.floor(rng() * 3), inputs: [] }, { ranks: 8, inputs: [] }],
  edgeCases: (rng) => [{ ranks: 16, inputs: [], n: rng() }, { ranks: 3, inputs: [] }],
};

test("Run (attempt 0): the first visible case, natural delivery, buffered sends", () => {
  const plan = judgePlan(exercise, mulberry32(1), 0);
  assert.deepEqual(plan, [{ testCase: exercise.cases(mulberry32(1))[0], delivery: null, sendMode: "buffered", hidden: false }]);
});

test("Check: every visible case under seeded interleavings, the first once with synchronous sends, then the hidden ones", () => {
  const plan = judgePlan(exercise, mulberry32(7), 3);
  const visible = exercise.cases(mulberry32(7));
  assert.equal(JUDGE_DEFAULTS.interleavings, 2);
  assert.equal(plan.length, 2 * 2 + 1 + 2);
  assert.deepEqual(plan.slice(0, 4).map((e) => e.testCase), [visible[0], visible[0], visible[1], visible[1]]);
  assert.ok(plan.slice(0, 4).every((e) => e.sendMode === "buffered" && !e.hidden));
  assert.deepEqual([plan[4].testCase, plan[4].sendMode, plan[4].hidden], [visible[0], "sync", false]);
  assert.deepEqual(plan.slice(5).map((e) => [e.testCase.ranks, e.hidden, e.sendMode]), [[16, true, "buffered"], [3, true, "buffered"]]);
  const seeds = plan.map((e) => e.delivery.seed);
  assert.ok(seeds.every((s) => Number.isInteger(s) && s >= 0 && s < 2 ** 32));
  assert.equal(new Set(seeds).size, seeds.length, "every run its own interleaving");
  assert.deepEqual(judgePlan(exercise, mulberry32(7), 3), plan, "the same rng gives the same plan");
  const other = judgePlan(exercise, exerciseRng(1, exercise.id, 4), 4);
  assert.notDeepEqual(other.map((e) => e.delivery.seed), seeds);
});

test("an exercise tunes its policy: fewer interleavings, no sync pass, no hidden cases", () => {
  const lean = { ...exercise, judge: { interleavings: 1, sync: false }, edgeCases: undefined };
  const plan = judgePlan(lean, mulberry32(2), 1);
  assert.deepEqual(plan.map((e) => [e.testCase.ranks === 8, e.sendMode, e.hidden]), [[false, "buffered", false], [true, "buffered", false]]);
});

test("misuse is a readable error; entries are described for the page", () => {
  assert.throws(() => judgePlan({ id: "n", kind: "numeric" }, mulberry32(1), 1), /n is not a code exercise/);
  assert.throws(() => judgePlan(exercise, mulberry32(1), -1), /attempt must be 0 \(Run\) or a positive integer/);
  const plan = judgePlan(exercise, mulberry32(7), 1);
  assert.equal(describeEntry(plan[4], 4, plan.length),
    `Case 5 of 7 (${plan[4].testCase.ranks} ranks, synchronous sends, delivery order ${plan[4].delivery.seed.toString(16)}): `);
  assert.match(describeEntry(plan[6], 6, 7), /^Case 7 of 7 \(3 ranks, delivery order [0-9a-f]+, a hidden case\): $/);
  assert.equal(describeEntry(judgePlan(exercise, mulberry32(1), 0)[0], 0, 1), `Case 1 of 1 (${exercise.cases(mulberry32(1))[0].ranks} ranks): `);
});

test("a passed Check describes the runs the learner saw: the last visible case's verdict, never a hidden case's", () => {
  const plan = judgePlan(exercise, mulberry32(7), 1);   // visible: p, p, 8, 8, p (sync); hidden: 16, 3
  // Each verdict names its own run, as the checkers' pass messages do ("All 8 ranks hold the sum").
  const verdicts = plan.map((e, i) => ({ pass: true, message: `Run ${i + 1}: all ${e.testCase.ranks} ranks hold the sum.` }));
  const visibleRanks = [...new Set(plan.slice(0, 5).map((e) => e.testCase.ranks))];
  const text = describePass(plan, verdicts);
  assert.equal(text, `All 7 runs passed (ranks: ${visibleRanks.join(", ")}; seeded delivery orders, synchronous sends, 2 hidden ` +
    `cases). Last run shown (${plan[4].testCase.ranks} ranks): Run 5: all ${plan[4].testCase.ranks} ranks hold the sum.`);
  assert.doesNotMatch(text, /Run [67]:/, "a hidden case's verdict describes sizes the learner never saw");
  const one = describePass([plan[0]], [verdicts[0]]);
  assert.match(one, /^All 1 run passed \(ranks: \d+; seeded delivery orders, synchronous sends\)\. Last run shown/);
});
