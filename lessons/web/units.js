// units.js — reading and writing quantities with SI prefixes: "62.5 KB", "10.2 µs", "25 GB/s".
const PREFIXES = [
  [1e9, "G"], [1e6, "M"], [1e3, "k"], [1, ""], [1e-3, "m"], [1e-6, "µ"], [1e-9, "n"],
];

// 3 significant digits with an SI prefix: formatSI(62500, "B") → "62.5 kB".
export function formatSI(value, unit = "", digits = 3) {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return `0 ${unit}`.trim();
  const abs = Math.abs(value);
  const [scale, prefix] = PREFIXES.find(([s]) => abs >= s * 0.9995) ?? PREFIXES[PREFIXES.length - 1];
  return `${Number((value / scale).toPrecision(digits))} ${prefix}${unit}`.trim();
}

export const formatBytes = (bytes, digits) => formatSI(bytes, "B", digits);
export const formatSeconds = (seconds, digits) => formatSI(seconds, "s", digits);
export const formatRate = (bytesPerSecond, digits) => formatSI(bytesPerSecond, "B/s", digits);

const SUFFIX = { n: 1e-9, u: 1e-6, "µ": 1e-6, m: 1e-3, k: 1e3, K: 1e3, M: 1e6, G: 1e9 };

// Parses what a learner types: "62500", "6.25e4", "62,500", "62.5k", "62.5 kB", "0.0667", "1/15".
// Returns NaN when it is not a number. A prefix is only read when something follows the number.
export function parseQuantity(text) {
  const s = String(text).trim().replace(/(\d),(?=\d{3}\b)/g, "$1").replace(/\s+/g, "");
  const fraction = s.match(/^([-+]?\d*\.?\d+)\/(\d*\.?\d+)$/);
  if (fraction) return Number(fraction[1]) / Number(fraction[2]);
  const m = s.match(/^([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)([nuµmkKMG])?([A-Za-z/%]*)$/i);
  if (!m) return NaN;
  let value = Number(m[1]);
  if (m[2]) value *= SUFFIX[m[2]];
  if (m[3] === "%") value /= 100;
  return value;
}
