// answer_check.js — judging a learner's number against the core's answer, and saying why it is wrong.
// Pure functions (no DOM), so tests/web/answer_check.test.mjs runs them in Node; exercise_answer.js shows the result.
//
// tolerance: { rel } (a fraction of |expected|) and/or { abs } (in the answer's unit); the looser one wins.
// With neither, only round-off (1e-9 relative) is forgiven.
import { dimensionName, formatNumber, formatPercent, formatRatio, formatSI, readQuantity } from "../units.js";
import { esc } from "./params.js";

const ROUND_OFF = 1e-9;

export function withinTolerance(got, expected, tolerance = {}) {
  if (typeof got !== "number" || typeof expected !== "number") return false;
  if (!Number.isFinite(got) || !Number.isFinite(expected)) return false;
  const rel = tolerance.rel ?? 0, abs = tolerance.abs ?? 0;
  if (!(rel >= 0) || !(abs >= 0)) throw new Error(`tolerance must be non-negative, got ${JSON.stringify(tolerance)}`);
  const allowed = Math.max(abs, Math.max(rel, ROUND_OFF) * Math.abs(expected));
  return Math.abs(got - expected) <= allowed;
}

// What an answer box accepts, by the exercise's unitSymbol: a bare number is always read in the answer's unit.
const ACCEPTS = { "": [null, "%", "×"], "×": [null, "×"], s: [null, "s"], B: [null, "B"], "B/s": [null, "B/s"] };
const EXAMPLES = { s: "<code>0.0397</code>, <code>39.7 ms</code> or <code>39700 µs</code>",
  B: "<code>62500</code>, <code>62.5 kB</code> or <code>61.04 KiB</code>",
  "B/s": "<code>12.5e9</code>, <code>12.5 GB/s</code> or <code>100 Gb/s</code>",
  fraction: "<code>0.0667</code>, <code>6.67%</code> or <code>1/15</code>", "×": "<code>2.24</code> or <code>2.24×</code>" };
const example = ({ unit, unitSymbol = "" }) => EXAMPLES[unitSymbol || (unit === "fraction" ? "fraction" : "×")];

/**
 * An answer written the way the exercise asks for it: SI prefixes for units ("39.7 ms", "62.5 kB"), a plain
 * number and its percentage for a fraction ("0.0667 (6.67%)"), "2.24×" for a speed-up, a plain number otherwise.
 */
export function formatAnswer(value, { unit = "", unitSymbol = "" } = {}) {
  if (unitSymbol === "×") return formatRatio(value);
  if (unitSymbol) return formatSI(value, unitSymbol);
  if (unit === "fraction") return `${formatNumber(value)} (${formatPercent(value)})`;
  return formatNumber(value);
}

// The mistakes learners actually make: units off by 10^3, 2^10/10^3 or 8, a percentage typed as a fraction, a
// factor of two.
function diagnose(got, want, exercise) {
  const ratio = got / want;
  const near = (r) => Math.abs(ratio / r - 1) < 0.02;
  if (exercise.unit === "fraction" && near(100)) {
    return `Your answer is 100× too large: did you type a percentage? A fraction of ${formatPercent(got / 100)} ` +
      `is written <code>${formatNumber(got / 100)}</code> or <code>${formatNumber(got)}%</code>.`;
  }
  for (const [r, why] of [[1e3, "1000× too large"], [1e-3, "1000× too small"], [1e6, "10⁶× too large"],
    [1e-6, "10⁻⁶ of the answer"],
    [1024 / 1000, "off by 1024/1000 — this course's kB, MB and GB are powers of ten (1 kB = 1000 B); write KiB for 1024 B"],
    [1000 / 1024, "off by 1000/1024 — this course's kB, MB and GB are powers of ten (1 kB = 1000 B); write KiB for 1024 B"],
    [8, "8× too large (bits vs bytes?)"], [1 / 8, "8× too small (bits vs bytes?)"], [2, "2× too large"],
    [0.5, "half the answer"]]) {
    if (near(r)) return `Your answer is ${why}: check the units and the formula.`;
  }
  if (!(ratio > 0)) return `Your answer has the wrong sign: the answer is ${want < 0 ? "negative" : "positive"}.`;
  if (ratio >= 10) return `Your answer is about ${formatRatio(ratio, 2)} too large: check the units and the formula.`;
  if (ratio <= 0.1) return `Your answer is about ${formatRatio(1 / ratio, 2)} too small: check the units and the formula.`;
  return `Your answer is ${ratio > 1 ? "too large" : "too small"} (off by ${formatPercent(Math.abs(ratio - 1), 2)}).`;
}

/**
 * Judges the text a learner typed against the core's answer `want` for `exercise` ({ tolerance, unit, unitSymbol }).
 * Returns { pass, value, message }: value is NaN (and pass false) when the text is not a quantity the box accepts.
 */
export function judgeAnswer(text, want, exercise) {
  const symbol = exercise.unitSymbol ?? "";
  const read = readQuantity(text);
  if (!Number.isFinite(read.value)) {
    const why = read.error?.startsWith("unknown unit") ? ` (${esc(read.error)})` : "";
    return { pass: false, value: NaN, message: `Enter a number${why}, for example ${example(exercise)}.` };
  }
  if (!(ACCEPTS[symbol] ?? [null]).includes(read.dimension)) {
    const wanted = symbol ? dimensionName(symbol) : exercise.unit === "fraction" ? "a fraction" : "a plain number";
    return { pass: false, value: NaN, message: `“${esc(String(text).trim())}” is ${dimensionName(read.dimension)}, but ` +
      `this answer is ${wanted}.` };
  }
  const got = read.value;
  const pass = withinTolerance(got, want, exercise.tolerance ?? { rel: 0.01 });
  return { pass, value: got, message: pass
    ? `${formatAnswer(got, exercise)} matches the core's ${formatAnswer(want, exercise)}.`
    : diagnose(got, want, exercise) };
}

