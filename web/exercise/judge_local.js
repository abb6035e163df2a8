// judge_local.js — a Check of a code exercise on the judge cluster (web/cluster/local_cluster.js): the runs of
// judgePlan (judge_plan.js), each with its delivery seed and send mode, checked by the exercise's own checker —
// exactly what the page's Check does on the Workers. CI (tests/exercises/judge.mjs, one imaginary learner's seed)
// and the lecturer's grader (scripts/grade.mjs, each learner's own seed) both judge through here.
//   await judgeCheck(exercise, code, { seed, attempt, core })
//     → { pass, runs: the plan's length, entries: how many ran, failed: the failing plan entry or null, message, run }
import { runLocal } from "../cluster/local_cluster.js";
import { judgePlan } from "./judge_plan.js";
import { exerciseRng } from "./random.js";

// How long one run may take on the judge cluster (real time) unless the exercise says otherwise.
export const JUDGE_TIMEOUT_MS = 5000;

// The plan of attempt `attempt` for the learner with seed `seed`.
export const planOf = (exercise, seed, attempt) => judgePlan(exercise, exerciseRng(seed, exercise.id, attempt), attempt);

// One entry of a plan: its RunResult and the checker's verdict.
export async function judgeEntry(exercise, code, entry, core = null) {
  const { testCase, delivery, sendMode } = entry;
  const program = exercise.program ? exercise.program(code) : code;
  const run = await runLocal(program, { ranks: testCase.ranks, inputs: testCase.inputs, core, delivery, sendMode,
    timeoutMs: exercise.timeoutMs ?? JUDGE_TIMEOUT_MS, learnerLines: exercise.program ? code.split("\n").length : null });
  return { run, verdict: exercise.check(run, testCase, core) };
}

// A whole Check, stopping at the first failing run as the page does; `message` is the checker's (HTML) on a failure.
export async function judgeCheck(exercise, code, { seed, attempt, core = null }) {
  const plan = planOf(exercise, seed, attempt);
  for (const [i, entry] of plan.entries()) {
    const { run, verdict } = await judgeEntry(exercise, code, entry, core);
    if (!verdict.pass) return { pass: false, runs: plan.length, entries: i + 1, failed: entry, message: verdict.message, run };
  }
  return { pass: true, runs: plan.length, entries: plan.length, failed: null, message: "", run: null };
}
