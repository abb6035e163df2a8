// random.js — small seeded random numbers, so each learner gets their own exercise parameters
// (an answer cannot be copied from a friend or hard-coded) and the same ones after a reload.

// mulberry32: a 32-bit generator; good enough to vary exercise inputs, not for cryptography.
export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// FNV-1a of a string, as an unsigned 32-bit integer.
export function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

// The generator for one exercise of one learner: the learner's seed mixed with the exercise id
// and an attempt counter (code checkers draw fresh cases on every check).
export function exerciseRng(learnerSeed, exerciseId, salt = 0) {
  return mulberry32((hash32(exerciseId) ^ Math.imul(learnerSeed >>> 0, 0x9e3779b1) ^ Math.imul(salt, 0x85ebca6b)) >>> 0);
}
