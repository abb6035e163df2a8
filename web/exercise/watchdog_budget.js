// watchdog_budget.js — how long a code exercise's run may take before the watchdog stops it, one formula for every
// exercise:
//   budget = max(FLOOR_MS, MULTIPLE × t_ref, rounded up to STEP_MS) = max(3 s, 30 × t_ref rounded up to 0.5 s)
// t_ref (reference_ms.js, bench/reference_times.mjs) is the reference solution's CPU time plus its virtual (sleeping)
// time on the slowest case the judge draws, all ranks in one thread: the same on a loaded machine as on an idle one,
// so two exercises' budgets differ only as the work of their references does. The watchdog counts from the moment the
// Workers are ready (cluster.js: the run's t0), so starting them is not in it. A learner's endless loop is stopped in
// seconds on every page, not after a fixed 30 s.
import REFERENCE_MS from "./reference_ms.js";

export const FLOOR_MS = 3000;   // a page that has just started: the core and the learner's module loading on each Worker
// The Workers against the judge's one thread: each message is a postMessage to the page and one on to its rank, and
// on a loaded machine each waits for its thread to be scheduled. Measured on the page (a Check of the reference, each
// run from the Workers' start to its end, a 2-core machine at load 11–23): up to 15 × t_ref — w6-int8 2.45 s for
// 170 ms, w2-ring-allreduce 0.75 s for 83 ms, w3-bucketed-ddp 3.1 s for 420 ms on 8 ranks. Twice that: a slower
// device or a busier machine still finishes a correct program.
export const MULTIPLE = 30;
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
