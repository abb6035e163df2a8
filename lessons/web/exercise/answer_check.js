// answer_check.js — is a learner's number close enough to the core's answer?
// tolerance: { rel } (a fraction of |expected|) and/or { abs } (in the answer's unit); the looser one wins.
// With neither, only round-off (1e-9 relative) is forgiven.
const ROUND_OFF = 1e-9;

export function withinTolerance(got, expected, tolerance = {}) {
  if (typeof got !== "number" || typeof expected !== "number") return false;
  if (!Number.isFinite(got) || !Number.isFinite(expected)) return false;
  const rel = tolerance.rel ?? 0, abs = tolerance.abs ?? 0;
  if (!(rel >= 0) || !(abs >= 0)) throw new Error(`tolerance must be non-negative, got ${JSON.stringify(tolerance)}`);
  const allowed = Math.max(abs, Math.max(rel, ROUND_OFF) * Math.abs(expected));
  return Math.abs(got - expected) <= allowed;
}
