// params.js — drawing an exercise's parameters from the learner's seeded rng, and writing them in prompts.
// Units follow the course: SI prefixes in powers of ten (1 kB = 1000 B, 1 GB/s = 10^9 B/s); times in seconds.

// One element of `list`, chosen by rng() ∈ [0, 1).
export const pick = (rng, list) => list[Math.min(list.length - 1, Math.floor(rng() * list.length))];

// An integer in [lo, hi], both included.
export const intBetween = (rng, lo, hi) => lo + Math.min(hi - lo, Math.floor(rng() * (hi - lo + 1)));

// `count` distinct elements of `list`, kept in the list's order (a partial Fisher–Yates shuffle of indices).
export function pickSorted(rng, list, count) {
  const idx = list.map((_, i) => i);
  const k = Math.min(count, list.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.min(idx.length - 1 - i, Math.floor(rng() * (idx.length - i)));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k).sort((a, b) => a - b).map((i) => list[i]);
}

const trim = (x, digits = 3) => String(Number(x.toPrecision(digits)));

// 62500 → "62.5 kB"; 8 → "8 B".
export function fmtBytes(bytes) {
  for (const [scale, unit] of [[1e9, "GB"], [1e6, "MB"], [1e3, "kB"]]) {
    if (bytes >= scale) return `${trim(bytes / scale, 4)} ${unit}`;
  }
  return `${trim(bytes, 4)} B`;
}

// 5e-6 → "5 µs"; 0.0397 → "39.7 ms".
export function fmtTime(seconds) {
  const abs = Math.abs(seconds);
  if (abs >= 1) return `${trim(seconds)} s`;
  if (abs >= 1e-3) return `${trim(seconds * 1e3)} ms`;
  if (abs >= 1e-6) return `${trim(seconds * 1e6)} µs`;
  return `${trim(seconds * 1e9)} ns`;
}

// Bytes/second → "12.5 GB/s".
export const fmtRate = (bytesPerSecond) => `${trim(bytesPerSecond / 1e9)} GB/s`;

// Text for HTML (checker messages quote learner values).
export const esc = (value) => String(value).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// A number as a term of a written-out sum: 3 → "3", −4 → "(−4)".
export const term = (x) => (x < 0 ? `(−${-x})` : String(x));
