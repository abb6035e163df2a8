// params.js — drawing an exercise's parameters from the learner's seeded rng, and writing them in prompts.
// Quantities in prompts and checker messages are written by ../units.js (formatBytes, formatSeconds, formatRate,
// plural): SI prefixes in powers of ten (1 kB = 1000 B, 1 GB/s = 10^9 B/s); times in seconds.

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

// Text for HTML (checker messages quote learner values).
export const esc = (value) => String(value).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

// A number as a term of a written-out sum: 3 → "3", −4 → "(−4)".
export const term = (x) => (x < 0 ? `(−${-x})` : String(x));
