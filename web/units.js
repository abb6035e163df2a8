// units.js — the course's one way of writing and reading quantities. Every number a learner sees (prose, widget
// readouts, chart labels, timelines, exercise prompts and feedback) is written by a function here, so the same
// value reads the same everywhere.
//
//   formatSI(62500, "B")        "62.5 kB"        SI prefixes in powers of ten (1 kB = 1000 B), 3 significant digits
//   formatBytes / formatSeconds / formatRate      the same for B, s and B/s: "39.7 ms", "12.5 GB/s"
//   formatNumber(0.0667)        "0.0667"         a plain number, no prefix (exponent form outside [1e-3, 1e6))
//   formatPercent(0.0667)       "6.67%"          a fraction as a plain percentage ({ decimals } for fixed places)
//   formatRatio(2.24)           "2.24×"          a ratio or speed-up
//   formatCount(10000)          "10 000"         an integer with thin spaces between thousands
//   plural(1, "worker")         "1 worker"       a count and its noun, singular or plural
//   withArticle("8-block")      "an 8-block"     "a" or "an" as the words are spoken
//   readQuantity("48.83 KiB")   { value: 50001.92, dimension: "B" }   what a learner typed (parseQuantity: the value)
//
// Values are cleaned of floating-point noise (to 12 significant digits) before rounding, so a value computed two
// ways — 15/16 and a simulator's 0.93749999999 — is written the same way.

const PREFIXES = [[1e12, "T"], [1e9, "G"], [1e6, "M"], [1e3, "k"], [1, ""], [1e-3, "m"], [1e-6, "µ"], [1e-9, "n"]];
const THIN = "\u202f";   // narrow no-break space, between groups of thousands

// Floating-point noise off: 0.1 + 0.2 → 0.3, 0.93749999999999 → 0.9375.
const clean = (x) => Number(x.toPrecision(12));
const round = (x, digits) => Number(clean(x).toPrecision(digits));
const digitsOf = (opts, fallback) => (typeof opts === "number" ? opts : opts?.digits ?? fallback);

// The index in PREFIXES of the prefix that writes |value| with 1 to 3 digits before the point.
function prefixIndex(value) {
  const i = PREFIXES.findIndex(([scale]) => Math.abs(clean(value)) >= scale);
  return i < 0 ? PREFIXES.length - 1 : i;
}

/** The SI multiple of `unit` that suits `value`: siUnit(0.0042, "s") → { scale: 1e-3, name: "ms" } (for axes). */
export function siUnit(value, unit) {
  const [scale, prefix] = PREFIXES[value > 0 ? prefixIndex(value) : 4];
  return { scale, name: `${prefix}${unit}` };
}

/** 3 significant digits with an SI prefix: formatSI(62500, "B") → "62.5 kB"; formatSI(0, "s") → "0 s". */
export function formatSI(value, unit = "", opts) {
  const digits = digitsOf(opts, 3);
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return `0 ${unit}`.trim();
  let i = prefixIndex(value);
  let shown = round(value / PREFIXES[i][0], digits);
  // 999.96 rounds to 1000 at 3 digits: write it as 1 k, not 1000.
  if (Math.abs(shown) >= 1000 && i > 0) { i -= 1; shown = round(value / PREFIXES[i][0], digits); }
  return `${shown} ${PREFIXES[i][1]}${unit}`.trim();
}

export const formatBytes = (bytes, opts) => formatSI(bytes, "B", opts);
export const formatSeconds = (seconds, opts) => formatSI(seconds, "s", opts);
export const formatRate = (bytesPerSecond, opts) => formatSI(bytesPerSecond, "B/s", opts);

/** A plain number: 3 significant digits, no SI prefix; exponent form ("1e-4", "2.5e6") outside [1e-3, 1e6). */
export function formatNumber(value, opts) {
  const digits = digitsOf(opts, 3);
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value);
  if (value === 0) return "0";
  const v = round(value, digits), abs = Math.abs(v);
  if (abs >= 1e-3 && abs < 1e6) return String(v);
  return v.toExponential(digits - 1).replace(/\.?0+e/, "e").replace("e+", "e");
}

// digits significant digits, or a fixed number of decimals when opts.decimals is given.
function fixed(x, opts, digits) {
  return opts?.decimals !== undefined ? clean(x).toFixed(opts.decimals) : String(round(x, digitsOf(opts, digits)));
}

/** A fraction as a percentage: formatPercent(0.0667) → "6.67%"; formatPercent(0.179, { decimals: 1 }) → "17.9%". */
export const formatPercent = (fraction, opts) => `${group(fixed(100 * fraction, opts, 3))}%`;

/** A ratio: formatRatio(2.238) → "2.24×"; formatRatio(6.37, { digits: 2 }) → "6.4×"; { decimals: 1 } → "3.0×". */
export const formatRatio = (ratio, opts) => `${group(fixed(ratio, opts, 3))}×`;

/** An integer (or any number) with thin spaces between thousands: 10000 → "10 000", 1048576 → "1 048 576". */
export const formatCount = (n) => group(String(n));

// "12345.6" → "12 345.6"; numbers below 10 000 keep their four digits together ("4096"), as the prose writes them.
function group(text) {
  const [int, frac] = text.split(".");
  const digits = int.replace("-", "");
  if (digits.length < 5) return text;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, THIN);
  return `${int.startsWith("-") ? "-" : ""}${grouped}${frac !== undefined ? `.${frac}` : ""}`;
}

/**
 * Every sentence built from a count goes through here: plural(1, "step") → "1 step"; plural(3, "step") → "3 steps";
 * plural(2, "matrix", "matrices") for irregulars; { article: "the" } → "the survivor" / "the 3 survivors";
 * { article: "all" } → "the one rank" / "both ranks" / "all 9 ranks".
 */
export function plural(count, singular, form = `${singular}s`) {
  const { plural: many = `${singular}s`, article = null } = typeof form === "string" ? { plural: form } : form;
  const noun = count === 1 ? singular : many, n = formatCount(count);
  if (article === "the") return count === 1 ? `the ${noun}` : `the ${n} ${noun}`;
  if (article === "all") return count === 1 ? `the one ${noun}` : count === 2 ? `both ${noun}` : `all ${n} ${noun}`;
  return `${n} ${noun}`;
}

/** The sentence's first letter in upper case: upperFirst(plural(2, "rank", { article: "all" })) → "Both ranks". */
export const upperFirst = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The indefinite article as the phrase is spoken: withArticle("8-block model") → "an 8-block model",
 * withArticle("16-block model") → "a 16-block model", withArticle("11-way split") → "an 11-way split".
 */
export function withArticle(phrase) {
  const text = String(phrase);
  const number = text.match(/^\d+/)?.[0];
  let an;
  if (number) {
    // Spoken "eight…", "eleven…", "eighteen…", "eighty…": 8…, and 11… or 18… when the leading group has two digits.
    const lead = number.slice(0, ((number.length - 1) % 3) + 1);
    an = number.startsWith("8") || lead === "11" || lead === "18";
  } else {
    an = /^[aeiou]/i.test(text);
  }
  return `${an ? "an" : "a"} ${text}`;
}

// ── reading ────────────────────────────────────────────────────────────────────────────────────────

const SI = { p: 1e-12, n: 1e-9, u: 1e-6, "µ": 1e-6, "μ": 1e-6, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
const BINARY = { K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40 };   // Ki, Mi, Gi, Ti (IEC 80000-13)
// Units a learner may write, by dimension; bits are bytes / 8 ("100 Gb/s" is 12.5 GB/s).
const UNITS = {
  s: ["s", 1], sec: ["s", 1], secs: ["s", 1], second: ["s", 1], seconds: ["s", 1],
  min: ["s", 60], mins: ["s", 60], minute: ["s", 60], minutes: ["s", 60],
  h: ["s", 3600], hr: ["s", 3600], hrs: ["s", 3600], hour: ["s", 3600], hours: ["s", 3600],
  d: ["s", 86400], day: ["s", 86400], days: ["s", 86400],
  B: ["B", 1], byte: ["B", 1], bytes: ["B", 1], b: ["B", 1 / 8], bit: ["B", 1 / 8], bits: ["B", 1 / 8],
  "B/s": ["B/s", 1], "bytes/s": ["B/s", 1], "b/s": ["B/s", 1 / 8], "bit/s": ["B/s", 1 / 8], bps: ["B/s", 1 / 8],
  FLOP: ["FLOP", 1], FLOPs: ["FLOP", 1], "FLOP/s": ["FLOP/s", 1],
  "%": ["%", 0.01], percent: ["%", 0.01], pct: ["%", 0.01], "×": ["×", 1], x: ["×", 1],
};
const UNIT_NAME = { s: "a time", B: "a size in bytes", "B/s": "a bandwidth", FLOP: "a number of FLOPs",
  "FLOP/s": "a compute rate", "%": "a percentage", "×": "a ratio" };
// Units of time that take no SI prefix ("37.95 min", "0.632 h", "2 days"; never "kmin").
const NO_PREFIX = new Set(["min", "mins", "minute", "minutes", "h", "hr", "hrs", "hour", "hours", "d", "day", "days"]);
/** What a dimension is called in a sentence: "a time", "a size in bytes", … */
export const dimensionName = (dimension) => UNIT_NAME[dimension] ?? "a plain number";

// Reads the unit after a number: "", "ms", "GB/s", "KiB", "k" (a bare prefix), "%". Returns [scale, dimension]
// or null when the text is not a unit this course knows.
function readUnit(suffix) {
  if (suffix === "") return [1, null];
  if (UNITS[suffix]) return [UNITS[suffix][1], UNITS[suffix][0]];
  const binary = suffix.match(/^([kKmMgGtT])[iI](.*)$/);
  if (binary) {
    const unit = binary[2] === "" ? ["B", 1] : UNITS[binary[2]];
    if (!unit || !["B", "B/s"].includes(unit[0])) return null;   // KiB, Mib/s, a bare Ki — never Kis
    return [BINARY[binary[1].toUpperCase()] * unit[1], unit[0]];
  }
  const prefix = SI[suffix[0]];
  if (prefix === undefined) return null;
  const rest = suffix.slice(1);
  if (rest === "") return [prefix, null];                          // "62.5k"
  const unit = UNITS[rest];
  if (!unit || unit[0] === "%" || unit[0] === "×" || NO_PREFIX.has(rest)) return null;
  return [prefix * unit[1], unit[0]];
}

/**
 * Reads what a learner types: "62500", "6.25e4", "62,500", "62 500", "62.5k", "62.5 kB", "48.83 KiB", "39.7 ms",
 * "37.95 min", "0.632 h", "100 Gb/s", "6.67%", "2.24×", "1/15". Returns { value, dimension } — dimension null for a bare number, else
 * "s", "B", "B/s", "FLOP", "FLOP/s", "%" or "×" — or { value: NaN, dimension: null, error } when it is not a
 * quantity.
 */
export function readQuantity(text) {
  const s = String(text).trim().replace(/(\d),(?=\d{3}\b)/g, "$1").replace(/\s+/g, "").replace(/−/g, "-");
  const fail = (error) => ({ value: NaN, dimension: null, error });
  if (s === "") return fail("empty");
  const fraction = s.match(/^([-+]?\d*\.?\d+)\/(\d*\.?\d+)$/);
  if (fraction) return { value: Number(fraction[1]) / Number(fraction[2]), dimension: null };
  const m = s.match(/^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(.*)$/i);
  if (!m) return fail("not a number");
  const unit = readUnit(m[2]);
  if (!unit) return fail(`unknown unit “${m[2]}”`);
  return { value: Number(m[1]) * unit[0], dimension: unit[1] };
}

/** The value of what a learner typed (see readQuantity), NaN when it is not a number. */
export const parseQuantity = (text) => readQuantity(text).value;
