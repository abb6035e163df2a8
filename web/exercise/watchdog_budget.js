// watchdog_budget.js — how long a code exercise's run may take before the watchdog stops it: a multiple of its
// reference solution's own run time (reference_ms.js, measured by bench/reference_times.mjs on the slowest case the
// judge draws), never under a floor of a few seconds (starting the Workers and the core, a slow device, a loaded
// machine). A learner's endless loop is then stopped in seconds on every page, not after a fixed 30 s.
import REFERENCE_MS from "./reference_ms.js";

export const FLOOR_MS = 3000;
export const MULTIPLE = 5;    // the reference's time (the judge's: all ranks' CPU in one thread, and every sleep) — a
                              // slower device, the Workers' messages, a correct but slower program
const STEP_MS = 500;
// An exercise without a measured reference (a code exercise added since the table was made; `node
// bench/reference_times.mjs --only ID` measures it): the most any budget may be, so that a correct but slow
// reference is not stopped while an endless loop still is within seconds (tests/web/watchdog_budget.test.mjs).
export const UNMEASURED_MS = 15000;

// The budget in ms, rounded up to half a second.
export function watchdogBudget(exercise) {
  const reference = REFERENCE_MS[exercise?.id];
  if (reference === undefined) return UNMEASURED_MS;
  return Math.max(FLOOR_MS, Math.ceil((MULTIPLE * reference) / STEP_MS) * STEP_MS);
}
