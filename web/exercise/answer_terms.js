// answer_terms.js — what a numeric exercise's answer box says it wants: the unit and the tolerance, read from the
// exercise's data (unit, tolerance), so the statement can never drift from what judgeAnswer accepts (every
// numeric exercise names its units and its tolerance). withinTolerance (answer_check.js) accepts an answer
// within rel·|expected| or abs, whichever is looser; the text says the same.
import { formatNumber } from "../units.js";

// { rel: 0.01 } → "within 1% of the answer"; { abs: 1 } with unit "micro-batches" → "within ±1 micro-batches"; both → "within 1% or ±1 …".
export function toleranceText(tolerance = { rel: 0.01 }, unit = "") {
  const parts = [];
  if (tolerance.rel) parts.push(`${formatNumber(tolerance.rel * 100)}% of the answer`);
  if (tolerance.abs) parts.push(`±${formatNumber(tolerance.abs)}${unit && unit !== "fraction" ? ` ${unit}` : ""}`);
  if (!parts.length) return "exactly";
  return `within ${parts.join(" or ")}${parts.length > 1 ? ", whichever is looser" : ""}`;
}

// The answer box's label: "Your answer (seconds, within 1%)".
export const answerLabel = (exercise) =>
  `Your answer (${[exercise.unit, toleranceText(exercise.tolerance, exercise.unit)].filter(Boolean).join(", ")})`;
