// test_order.mjs — the order to start test files in so that the cores finish together: the longest expected first
// (scripts/run_in_order.mjs). Expected seconds are the last run's (keyed by file name); a file without one is
// expected to take as long per byte of its source as the files with one did on average (by size alone when none has).
import { statSync } from "node:fs";
import { basename } from "node:path";

/** The files, longest expected first: last run's seconds, or bytes × the measured seconds per byte. */
export function longestFirst(files, timings) {
  const bytes = new Map(files.map((f) => [f, statSync(f).size]));
  const known = files.filter((f) => Number.isFinite(timings[basename(f)]));
  const perByte = known.length > 0
    ? known.reduce((sum, f) => sum + timings[basename(f)], 0) / known.reduce((sum, f) => sum + bytes.get(f), 0)
    : 1;
  const expected = (f) => (Number.isFinite(timings[basename(f)]) ? timings[basename(f)] : perByte * bytes.get(f));
  return [...files].sort((a, b) => expected(b) - expected(a) || a.localeCompare(b));
}

