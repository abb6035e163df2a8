// judge_plan.js — how a code exercise is judged, as data: the list of runs one Check makes. The page's Check
// and CI (tests/exercises/judge.mjs) both take their runs from here, so what CI proves is what a learner gets.
//
//   judgePlan(exercise, rng, attempt) → [{ testCase, delivery, sendMode, hidden }]
//     rng      the attempt's seeded generator: exerciseRng(learnerSeed, exercise.id, attempt) (random.js)
//     attempt  0 for Run (one visible case, natural delivery, buffered sends), 1, 2, … for each Check
//
// A Check runs, in order (MIT 6.5840 style: the same code under several schedules):
//   1. every case of exercise.cases(rng), each under `interleavings` seeded delivery orders
//      (delivery: { seed }: per-pair FIFO, any order across pairs — web/cluster/run_options.js);
//   2. the first case once more with synchronous sends (sendMode "sync": a send completes when the receiver
//      takes the message, so code that awaits its send before receiving deadlocks, as with MPI_Ssend);
//   3. exercise.edgeCases(rng), if any — sizes the learner never sees (p = 16, non-powers of two, n < p …),
//      each under a seeded delivery order, marked hidden so the page shows the verdict, not the inputs.
// exercise.judge = { interleavings = 2, sync = true } tunes it per exercise (the lab's runs are long).

import { plural } from "../units.js";

export const JUDGE_DEFAULTS = Object.freeze({ interleavings: 2, sync: true });

export function judgePlan(exercise, rng, attempt) {
  if (exercise?.kind !== "code" || typeof exercise.cases !== "function") {
    throw new TypeError(`judgePlan: ${exercise?.id ?? "this exercise"} is not a code exercise with cases(rng)`);
  }
  if (!Number.isInteger(attempt) || attempt < 0) throw new RangeError(`judgePlan: attempt must be 0 (Run) or a positive integer (got ${attempt})`);
  const visible = exercise.cases(rng);
  if (attempt === 0) return [{ testCase: visible[0], delivery: null, sendMode: "buffered", hidden: false }];
  const { interleavings, sync } = { ...JUDGE_DEFAULTS, ...exercise.judge };
  const hidden = exercise.edgeCases?.(rng) ?? [];
  const seed = () => Math.floor(rng() * 2 ** 32);
  const plan = [];
  for (const testCase of visible) {
    for (let i = 0; i < interleavings; i++) plan.push({ testCase, delivery: { seed: seed() }, sendMode: "buffered", hidden: false });
  }
  if (sync) plan.push({ testCase: visible[0], delivery: { seed: seed() }, sendMode: "sync", hidden: false });
  for (const testCase of hidden) plan.push({ testCase, delivery: { seed: seed() }, sendMode: "buffered", hidden: true });
  return plan;
}

// "Case 3 of 7 (4 ranks, synchronous sends): " — what the page writes before a verdict. A hidden case says
// only how many ranks it had; an interleaving is named by its seed so a failure can be replayed.
export function describeEntry({ testCase, delivery, sendMode, hidden }, index, total) {
  const parts = [`${testCase.ranks} ranks`];
  if (sendMode === "sync") parts.push("synchronous sends");
  if (delivery) parts.push(`delivery order ${delivery.seed.toString(16)}`);
  if (hidden) parts.push("a hidden case");
  return `Case ${index + 1} of ${total} (${parts.join(", ")}): `;
}

// What the page says when every run of a Check passed: `verdicts[i]` is the checker's verdict on plan[i]. The summary
// names the visible cases' ranks and counts the hidden ones; the checker's own words come from the last run the
// learner saw (its inputs and output were shown), never from a hidden case, whose sizes the learner did not see.
export function describePass(plan, verdicts) {
  const ranks = [...new Set(plan.filter((e) => !e.hidden).map((e) => e.testCase.ranks))];
  const hidden = plan.filter((e) => e.hidden).length;
  const hiddenText = hidden ? `, ${plural(hidden, "hidden case")}` : "";
  const seen = plan.findLastIndex((e) => !e.hidden);
  const message = seen >= 0 ? verdicts[seen]?.message ?? "" : "";
  const shown = seen >= 0 ? ` Last run shown (${plan[seen].testCase.ranks} ranks): ${message}` : "";
  return `All ${plural(plan.length, "run")} passed (ranks: ${ranks.join(", ")}; seeded delivery orders, synchronous sends${hiddenText}).${shown}`;
}
