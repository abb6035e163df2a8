// learner_seeds.js — learners (seeds) whose first Checks between them meet every cluster size a code exercise
// draws. A learner's cases come from exerciseRng(seed, id, attempt) (random.js), so one learner meets only some of
// the sizes an exercise can draw; a checker that is wrong at p = 3 passes CI if CI's one learner never draws 3.
// Drawing a plan costs nothing (no run), so the candidates are scanned until `patience` of them in a row meet no
// size the chosen ones have not: every size drawn with probability ≳ 1/patience per learner is met.
//   coveringSeeds(exercise) → [{ seed, sizes: [p, …] (the sizes this learner adds) }]
import { planOf } from "./judge_local.js";

// The k-th candidate learner: k = 0 is `first`; the others spread over 32-bit seeds (Knuth's multiplicative hash).
export const candidateSeed = (first, k) => (k === 0 ? first : (first + Math.imul(k, 2654435761)) >>> 0);

export function coveringSeeds(exercise, { first = 20240601, patience = 200, max = 12, attempt = 1 } = {}) {
  const met = new Set();
  const chosen = [];
  for (let k = 0, idle = 0; idle < patience && chosen.length < max; k += 1) {
    const seed = candidateSeed(first, k);
    const sizes = [...new Set(planOf(exercise, seed, attempt).map((entry) => entry.testCase.ranks))];
    const fresh = sizes.filter((p) => !met.has(p)).sort((a, b) => a - b);
    if (fresh.length === 0) { idle += 1; continue; }
    idle = 0;
    for (const p of fresh) met.add(p);
    chosen.push({ seed, sizes: fresh });
  }
  return chosen;
}
