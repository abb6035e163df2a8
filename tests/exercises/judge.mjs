// judge.mjs — CI's side of judging a code exercise: one imaginary learner's Checks, judged on the judge cluster
// as the page's Check judges them (web/exercise/judge_local.js).
import { judgeCheck, judgeEntry, planOf } from "../../web/exercise/judge_local.js";

export { judgeEntry };
export const LEARNER_SEED = 20240601;   // one imaginary learner; attempts 1, 2, … give fresh cases

// A whole Check of attempt `attempt`, stopping at the first failing run as the page does.
// → { pass, entries: how many ran, failed: the failing entry or null, message, run }
export const judgeAttempt = (exercise, code, attempt, core = null) =>
  judgeCheck(exercise, code, { seed: LEARNER_SEED, attempt, core });

// The plans of attempts 1, 2, … until they hold at least `min` runs under a seeded delivery order.
export function plansFor(exercise, min) {
  const plans = [];
  let seeded = 0;
  for (let attempt = 1; seeded < min; attempt++) {
    const plan = planOf(exercise, LEARNER_SEED, attempt);
    plans.push({ attempt, plan });
    seeded += plan.filter((e) => e.delivery).length;
  }
  return plans;
}
