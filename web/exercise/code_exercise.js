// code_exercise.js — a code exercise (lessons/AUTHORING.md) from its two halves, written once here so that no
// exercise module repeats the fields every code exercise has:
//   own   what it says and how it runs: id, title, prompt, ranks, hints, solutionText, and any optional field
//         (timeoutMs, program, exempt, judge, mustCover, visibleRanks, summarizeResult, …)
//   code  its programs and checks: { starter, solution, wrongs, cases, edgeCases, check }
// and what follows from them: kind "code", and `wrong`, the program the page's own test (tests/e2e) runs — the
// first of the wrong programs.
const CODE_FIELDS = ["starter", "solution", "wrongs", "cases", "check"];

export function codeExercise(own, code) {
  const missing = CODE_FIELDS.filter((field) => code[field] === undefined);
  if (missing.length) throw new Error(`code exercise ${own.id}: no ${missing.join(", ")}`);
  if (!Array.isArray(code.wrongs) || !code.wrongs.length) throw new Error(`code exercise ${own.id}: wrongs must list at least one wrong program`);
  return { kind: "code", ...own, ...code, wrong: code.wrongs[0].code };
}

// A code exercise in which the learner writes one function of a trainer that runs on the Workers: every case
// trains a model (`trains` says which: "a model with the data-parallel trainer"), so each case runs in one
// delivery order — unless `shuffled`, where the order is what the exercise tests — and a third attempt adds
// nothing the cases lack.
export function trainerExercise({ trains, shuffled = false, ...own }, code) {
  return codeExercise({
    ...(shuffled ? {} : { judge: { interleavings: 1 } }),
    exempt: { thirdAttempt: `every run trains ${trains}` },
    ...own,
  }, code);
}
