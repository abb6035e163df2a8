// watchdog_budget.js — how long a code exercise's run may take before the watchdog stops it, one formula for every
// exercise:
//   budget = max(FLOOR_MS, MULTIPLE × t_ref, rounded up to STEP_MS) = max(3 s, 10 × t_ref rounded up to 0.5 s)
// t_ref (reference_ms.js, bench/reference_times.mjs) is the reference solution's CPU time plus its virtual (sleeping)
// time on the slowest case the judge draws, all ranks in one thread: the same on a loaded machine as on an idle one,
// so two exercises' budgets differ only as the work of their references does. The watchdog counts from the moment the
// Workers are ready (cluster_pool.js onStart), so starting them is not in it. A learner's endless loop is stopped in
// seconds on every page, not after a fixed 30 s.
import REFERENCE_MS from "./reference_ms.js";

export const FLOOR_MS = 3000;   // a page that has just started: the core and the learner's module loading on each Worker
// The Workers against the judge's one thread: each message is a postMessage and a structured clone (w6-int8's
// reference, 1600 messages, takes about 5× its t_ref on the page's Workers on a loaded 2-core machine: 791 ms for
// 170 ms), and a phone or a busy laptop is 2× slower again.
export const MULTIPLE = 10;
export const STEP_MS = 500;
// An exercise without a measured reference (a code exercise added since the table was made; `node
// bench/reference_times.mjs --only ID` measures it): the most any budget may be, so that a correct but slow
// reference is not stopped while an endless loop still is within seconds (tests/web/watchdog_budget.test.mjs).
export const UNMEASURED_MS = 15000;

// The budget in ms (the formula above).
export function watchdogBudget(exercise) {
  const reference = REFERENCE_MS[exercise?.id];
  if (reference === undefined) return UNMEASURED_MS;
  return Math.max(FLOOR_MS, Math.ceil((MULTIPLE * reference) / STEP_MS) * STEP_MS);
}
