// judge.mjs — CI's side of judging a code exercise: the runs of judgePlan (web/exercise/judge_plan.js),
// each on the judge cluster (web/cluster/local_cluster.js) with its delivery seed and send mode, checked
// by the exercise's own checker — exactly what the page's Check does on the Workers.
import { runLocal } from "../../web/cluster/local_cluster.js";
import { judgePlan } from "../../web/exercise/judge_plan.js";
import { exerciseRng } from "../../web/exercise/random.js";

export const LEARNER_SEED = 20240601;   // one imaginary learner; attempts 1, 2, … give fresh cases

// One entry of a plan: its RunResult and the checker's verdict.
export async function judgeEntry(exercise, code, entry, core = null) {
  const { testCase, delivery, sendMode } = entry;
  const program = exercise.program ? exercise.program(code) : code;
  const run = await runLocal(program, { ranks: testCase.ranks, inputs: testCase.inputs, core, delivery, sendMode,
    timeoutMs: exercise.timeoutMs ?? 5000, learnerLines: exercise.program ? code.split("\n").length : null });
  return { run, verdict: exercise.check(run, testCase, core) };
}

// A whole Check of attempt `attempt`, stopping at the first failing run as the page does.
// → { pass, entries: how many ran, failed: the failing entry or null, message, run }
export async function judgeAttempt(exercise, code, attempt, core = null) {
  const plan = judgePlan(exercise, exerciseRng(LEARNER_SEED, exercise.id, attempt), attempt);
  for (const [i, entry] of plan.entries()) {
    const { run, verdict } = await judgeEntry(exercise, code, entry, core);
    if (!verdict.pass) return { pass: false, entries: i + 1, failed: entry, message: verdict.message, run };
  }
  return { pass: true, entries: plan.length, failed: null, message: "", run: null };
}

// The plans of attempts 1, 2, … until they hold at least `min` runs under a seeded delivery order.
export function plansFor(exercise, min) {
  const plans = [];
  let seeded = 0;
  for (let attempt = 1; seeded < min; attempt++) {
    const plan = judgePlan(exercise, exerciseRng(LEARNER_SEED, exercise.id, attempt), attempt);
    plans.push({ attempt, plan });
    seeded += plan.filter((e) => e.delivery).length;
  }
  return plans;
}
