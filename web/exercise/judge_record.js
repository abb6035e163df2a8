// judge_record.js — judging the answer a learner saved for a numeric, predict or choice exercise afresh, from the
// answer itself and the learner's seed: the parameters are the ones the learner's page drew (exerciseRng(seed, id)),
// the expected value is the exercise's own answer(params, core), the verdict is answer_check.js's — the page's.
// A record's `solved` flag is never read here. (Code exercises are judged by judge_local.js.)
import { judgeAnswer, judgeChoice } from "./answer_check.js";
import { exerciseRng } from "./random.js";

/** The parameters exercise `exercise` shows the learner whose seed is `seed` ({} for an exercise without any). */
export const exerciseParams = (exercise, seed) => (exercise.params ? exercise.params(exerciseRng(seed, exercise.id)) : {});

/** → { pass, message } (message as HTML, as the page shows it). `answer` is what the record holds. */
export function judgeSavedAnswer(exercise, answer, seed, core) {
  if (exercise.kind === "choice") return judgeSavedChoice(exercise.options, answer);
  if (typeof answer !== "string" && typeof answer !== "number") {
    return { pass: false, message: `The saved answer is not text typed in the answer box (${describe(answer)}).` };
  }
  const params = exerciseParams(exercise, seed);
  const { pass, message } = judgeAnswer(String(answer), exercise.answer(params, core), exercise, { params, core });
  return { pass, message };
}

function judgeSavedChoice(options, chosen) {
  const valid = Array.isArray(chosen) && chosen.length > 0 && new Set(chosen).size === chosen.length
    && chosen.every((i) => Number.isInteger(i) && i >= 0 && i < options.length);
  if (!valid) {
    return { pass: false, message: `The saved answer (${describe(chosen)}) is not a choice among this exercise's `
      + `${options.length} options.` };
  }
  const { pass, missed } = judgeChoice(options, chosen);
  const named = [...chosen].sort((a, b) => a - b).map((i) => i + 1).join(", ");
  const why = pass ? "exactly the correct options."
    : missed ? "not the correct set: at least one correct option is not chosen." : "not the correct set: a chosen option is wrong.";
  return { pass, message: `Chose option${chosen.length > 1 ? "s" : ""} ${named}: ${why}` };
}

function describe(value) {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
