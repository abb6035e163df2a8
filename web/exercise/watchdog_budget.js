// watchdog_budget.js — how long a code exercise's run may take before the watchdog stops it: a multiple of its
// reference solution's own run time (reference_ms.js, measured by bench/reference_times.mjs on the slowest case the
// judge draws), never under a floor of a few seconds (starting the Workers and the core, a slow device, a loaded
// machine). A learner's endless loop is then stopped in seconds on every page, not after a fixed 30 s.
import REFERENCE_MS from "./reference_ms.js";

export const FLOOR_MS = 3000;
export const MULTIPLE = 5;    // the reference's time (the judge's: all ranks' CPU in one thread, and every sleep) — a
                              // slower device, the Workers' messages, a correct but slower program
const STEP_MS = 500;

// The budget in ms, rounded up to half a second. An exercise without a measured reference (a code exercise added
// since the table was generated: tests/web/watchdog_budget.test.mjs fails until it is) keeps the floor.
export function watchdogBudget(exercise) {
  const reference = REFERENCE_MS[exercise?.id] ?? 0;
  return Math.max(FLOOR_MS, Math.ceil((MULTIPLE * reference) / STEP_MS) * STEP_MS);
}
