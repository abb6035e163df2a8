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
// An answer asked for in per cent ("%") is the number before the sign: 36.5 and "36.5%" are both 36.5 per cent.
const ACCEPTS = { "": [null, "%", "×"], "%": [null, "%"], "×": [null, "×"], s: [null, "s"], B: [null, "B"], "B/s": [null, "B/s"] };
const EXAMPLES = { s: "<code>0.0397</code>, <code>39.7 ms</code> or <code>39700 µs</code>",
  B: "<code>62500</code>, <code>62.5 kB</code> or <code>61.04 KiB</code>",
  "B/s": "<code>12.5e9</code>, <code>12.5 GB/s</code> or <code>100 Gb/s</code>",
  fraction: "<code>0.0667</code>, <code>6.67%</code> or <code>1/15</code>", "×": "<code>2.24</code> or <code>2.24×</code>",
  "%": "<code>36.5</code>, <code>36.5%</code> or <code>36.5 percent</code>",
  hours: "<code>34.2</code>, <code>34.2 h</code> or <code>1.43 days</code>" };
const example = ({ unit, unitSymbol = "" }) =>
  EXAMPLES[unitSymbol || (unit === "fraction" || unit === "hours" ? unit : "×")];
// An answer asked for in hours (unit "hours", no symbol) is a plain number of hours, or any time the box reads.
const inHours = (exercise, read) => exercise.unit === "hours" && !exercise.unitSymbol && read.dimension === "s";

/**
 * An answer written the way the exercise asks for it: SI prefixes for units ("39.7 ms", "62.5 kB"), a plain
 * number and its percentage for a fraction ("0.0667 (6.67%)"), "2.24×" for a speed-up, a plain number otherwise.
 */
export function formatAnswer(value, { unit = "", unitSymbol = "" } = {}) {
  if (unitSymbol === "×") return formatRatio(value);
  if (unitSymbol === "%") return `${formatNumber(value)}%`;
  if (unitSymbol) return formatSI(value, unitSymbol);
  if (unit === "fraction") return `${formatNumber(value)} (${formatPercent(value)})`;
  if (unit === "hours") return `${formatNumber(value)} h`;
  return formatNumber(value);
}

// Why a wrong answer is wrong, without giving the answer away. A message never states the expected value or the
// factor by which the learner is off: "32 000 000× too small", "half the expected value" or "8× too large" would let
// any numeric exercise be passed on the second try by multiplying, with no formula. It names the likely slip instead:
// first the exercise's own `slips` (a value computed the way the mistake computes it, and what the mistake is), then
// the slips any answer can make when it is exactly their factor off (a unit prefix, bits for bytes, KiB for kB, a
// percentage for a fraction, a factor of 2, a fraction's complement), and otherwise a direction and a coarse class
// only — for a count, with the reminder that a count is whole.
function diagnose(got, want, exercise, slipValues) {
  if (want === 0) return `Your answer is too ${got > 0 ? "large" : "small"}: check the formula.`;
  const ratio = got / want;
  if (!(ratio > 0)) return `Your answer has the wrong sign: the answer is ${want < 0 ? "negative" : "positive"}.`;
  return declaredSlip(got, ratio, exercise, slipValues) ?? complement(got, want, exercise) ?? namedSlip(ratio, exercise) ??
    notWhole(got, ratio, want, exercise) ?? coarseMiss(ratio, want, exercise);
}

// A fraction answered with the other part of the whole (the idle share for the busy one, the hidden share for the
// exposed one): 1 − want, within the exercise's tolerance. Named by what it is, not by a number.
function complement(got, want, exercise) {
  if (exercise.unit !== "fraction" || !(want > 0 && want < 1) || Math.abs(want - 0.5) < 0.05) return undefined;
  if (!withinTolerance(got, 1 - want, exercise.tolerance ?? { rel: 0.01 })) return undefined;
  return `Your answer is ${wayOf(got / want)}: it is the other part of the whole — the share the question does not ` +
    "ask about. Read again which part is asked for (busy or idle, hidden or exposed, kept or lost).";
}

// A count (micro-batches, shards, stages) typed with a fractional part, more than 5% off (within 5% coarseMiss says
// the same): the coarse class, and that a count is whole (rounded up to hold everything, down to stay within a limit).
function notWhole(got, ratio, want, exercise) {
  if (!isCount(want, exercise) || Math.abs(got - Math.round(got)) < 1e-6 || Math.abs(ratio - 1) <= 0.05) return undefined;
  return `${coarseMiss(ratio, want, exercise)} It is also not a whole number, but this answer counts ${exercise.unit || "items"}: round the way ` +
    "the question needs (up to hold everything, down to stay within a limit).";
}

const wayOf = (ratio) => (ratio > 1 ? "too large" : "too small");

/**
 * The values of an exercise's declared slips for these parameters: [{ name, value, explain }] (explain as HTML).
 * An exercise lists them as `slips: [{ name, value(params, core), explain }]`, `explain` a string or (params) => string;
 * `value` is null for parameters where that mistake gives the answer anyway (within the tolerance): no slip there.
 */
export function slipValues(exercise, params, core) {
  return (exercise.slips ?? []).map((slip) => ({
    name: slip.name,
    value: slip.value(params, core),
    explain: typeof slip.explain === "function" ? slip.explain(params) : slip.explain,
  }));
}

// The declared slip the answer equals (within the exercise's own tolerance around the slip's value), in words.
function declaredSlip(got, ratio, exercise, slips) {
  if (!slips) return undefined;
  const tolerance = exercise.tolerance ?? { rel: 0.01 };
  const slip = slips.find((s) => Number.isFinite(s.value) && withinTolerance(got, s.value, tolerance));
  return slip && `Your answer is ${wayOf(ratio)}. ${slip.explain}`;
}

// A unit prefix slip (ms for s, kB for B) is a factor of 10³ⁿ in any answer. KiB for kB (2.4%, or 4.9% and 7.4% for
// MiB and GiB) is a slip only in bytes and bytes per second; bits for bytes also in a time computed from a bandwidth.
const inBytes = ({ unitSymbol }) => unitSymbol === "B" || unitSymbol === "B/s";
const BITS_OR_BYTES = ["B", "B/s", "s"];
const PREFIX_FACTORS = [1e3, 1e6, 1e9];

// The slip whose factor `ratio` is (to 2%; to 1% for the small binary-prefix factors), in words, or undefined.
function namedSlip(ratio, exercise) {
  const near = (r, within = 0.02) => Math.abs(ratio / r - 1) < within;
  const way = wayOf(ratio);
  if (exercise.unit === "fraction" && near(100)) {
    return `Your answer is too large: did you type a percentage? This box reads a fraction as a plain number ` +
      "or with a % sign (a half is <code>0.5</code> or <code>50%</code>).";
  }
  if (exercise.unitSymbol === "%" && near(0.01)) {
    return `Your answer is too small: did you type a fraction? This box reads per cent, as a plain number or with ` +
      "a % sign (a half is <code>50</code> or <code>50%</code>).";
  }
  if (PREFIX_FACTORS.some((r) => near(r) || near(1 / r))) {
    const fix = exercise.unitSymbol && exercise.unitSymbol !== "×"
      ? "Check each input's unit; the box also reads a unit after your number."
      : "Convert every input to seconds and bytes before combining them.";
    return `Your answer is ${way}: a unit prefix slip (ms for s, kB for B, µs for ms)? ${fix}`;
  }
  if (inBytes(exercise) && [1.024, 1.024 ** 2, 1.024 ** 3].some((f) => near(f, 0.01) || near(1 / f, 0.01))) {
    return `Your answer is a little ${way}, as if binary and decimal prefixes were mixed: this course's ` +
      "kB, MB and GB are powers of ten (1 kB = 1000 B); write KiB, MiB or GiB for powers of 1024.";
  }
  if (BITS_OR_BYTES.includes(exercise.unitSymbol) && (near(8) || near(1 / 8))) {
    return `Your answer is ${way}: bits for bytes, or bytes for bits? Link speeds are quoted in bits per second ` +
      "(Gb/s), sizes and this course's bandwidths in bytes (GB/s): check which each input is.";
  }
  if (near(2)) {
    return "Your answer is too large: is something in it counted again — both directions where one was meant, a " +
      "send and its receive, a sum where a mean belongs?";
  }
  if (near(0.5)) {
    return "Your answer is too small: is one of a pair missing — one direction of two, one phase of two (a " +
      "reduce-scatter without its all-gather, a forward without its backward), or a factor in a formula?";
  }
  return undefined;
}

// Direction and a coarse class: more than 10× off, 2–10× off, within 2×, within 5% (but outside the tolerance).
// A whole-number answer (a count: micro-batches, shards, steps) within 5% was not rounded off along the way: it is
// counted differently.
function coarseMiss(ratio, want, exercise) {
  const way = wayOf(ratio), factor = Math.max(ratio, 1 / ratio);
  if (factor > 10) {
    return `Your answer is ${way}, by more than a factor of 10: check the formula and the unit of each quantity.`;
  }
  if (factor >= 2) return `Your answer is ${way}, by a factor between 2 and 10: is a term or a factor missing or extra?`;
  if (Math.abs(ratio - 1) > 0.05) return `Your answer is close but ${way} (within a factor of 2): check each term.`;
  if (isCount(want, exercise)) {
    return `Your answer is ${way}, within 5% but outside the tolerance: this answer is a whole number — check where ` +
      "you round up or down (a ceiling or a floor) and whether each end of a range is counted.";
  }
  return `Your answer is ${way}, within 5% but outside the tolerance: did you round an intermediate value? ` +
    "Keep every digit until the end.";
}

// A count (micro-batches, shards, rows): a whole-number answer with no unit symbol that is not a fraction or a ratio.
const isCount = (want, { unit, unitSymbol = "" }) =>
  Number.isInteger(want) && unitSymbol === "" && unit !== "fraction" && unit !== "ratio";

/**
 * Judges the text a learner typed against the core's answer `want` for `exercise` ({ tolerance, unit, unitSymbol,
 * slips }). `given` ({ params, core }) lets the exercise's declared slips be computed for the learner's parameters.
 * Returns { pass, value, message }: value is NaN (and pass false) when the text is not a quantity the box accepts.
 */
export function judgeAnswer(text, want, exercise, given = null) {
  const symbol = exercise.unitSymbol ?? "";
  const read = readQuantity(text);
  if (!Number.isFinite(read.value)) {
    const why = read.error?.startsWith("unknown unit") ? ` (${esc(read.error)})` : "";
    return { pass: false, value: NaN, message: `Enter a number${why}, for example ${example(exercise)}.` };
  }
  if (inHours(exercise, read)) read.value /= 3600;
  else if (!(ACCEPTS[symbol] ?? [null]).includes(read.dimension)) {
    const wanted = symbol ? dimensionName(symbol) : exercise.unit === "fraction" ? "a fraction" : "a plain number";
    return { pass: false, value: NaN, message: `“${esc(String(text).trim())}” is ${dimensionName(read.dimension)}, but ` +
      `this answer is ${wanted}.` };
  }
  const got = symbol === "%" && read.dimension === "%" ? read.value * 100 : read.value;   // "36.5%" read as 0.365
  const pass = withinTolerance(got, want, exercise.tolerance ?? { rel: 0.01 });
  return { pass, value: got, message: pass
    ? `${formatAnswer(got, exercise)} matches the core's ${formatAnswer(want, exercise)}.`
    : diagnose(got, want, exercise, given && slipValues(exercise, given.params, given.core)) };
}


/**
 * Judges the options a learner chose (their indices) in a choice exercise: it passes when exactly the correct
 * options are chosen. Returns { pass, missed: how many correct options are not chosen }.
 */
export function judgeChoice(options, chosen) {
  const picked = new Set(chosen);
  return {
    pass: options.every((option, i) => picked.has(i) === Boolean(option.correct)),
    missed: options.filter((option, i) => option.correct && !picked.has(i)).length,
  };
}
