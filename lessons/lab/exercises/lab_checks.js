// lab_checks.js — what the lab's code exercises share. Each one has the learner write ONE piece of the lab's
// trainer (lab_program.js); the whole trainer then runs on the Workers, and the verdict is training equality:
// the parameters the ranks end with, assembled, against core.trainSingle's single-device run on the same
// batches — plus, per exercise, what the trace shows about the communication. Pure functions, no DOM.
import { esc } from "../../../web/exercise/params.js";
import { formatNumber, formatPercent, formatRatio, plural } from "../../../web/units.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { LAB_DEFAULTS, assembleParams, labInputs, labProgram } from "../programs/lab_program.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { trainingDrift } from "../../../web/exercise/training_drift.js";
import { trainerExercise } from "../../../web/exercise/code_exercise.js";

export { fail, pass, unfinished };

// Relative parameter distance a correct run stays under: the only differences are the order in which
// floating-point sums are taken (measured ≈ 1e-16 … 1e-15 after a few steps).
export const EQUALITY = 1e-9;

// A small lab configuration for an exercise case; every field can be overridden.
export function labCase(fields) {
  const config = {
    ...LAB_DEFAULTS, model: { layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true },
    optimizer: { kind: "sgd", lr: 0.05 }, microBatches: 1, schedule: "1f1b", batch: 24, steps: 2, fsdp: false,
    ...fields,
  };
  return { ranks: config.grid.dp * config.grid.tp * config.grid.pp, inputs: labInputs(config), config };
}

// The exercise's `program`: the learner's functions in place of the reference ones.
export const programWith = (replaces) => (code) => labProgram({ learnerCode: code, replaces });

// A lab code exercise: its own fields (id, title, prompt, hints, solutionText), its code (web/exercise/code_exercise.js)
// and what every lab exercise shares — 4 Workers, 20 s, the lab trainer with the learner's `replaces` functions in
// place of the reference's, and one delivery order per case (each case trains the lab's model; the judge adds the
// synchronous-send and hidden runs).
export function labExercise({ replaces, ...own }, code) {
  return trainerExercise({ ranks: 4, timeoutMs: 20000,
    program: programWith(replaces), trains: "the lab's model on its grid of ranks", ...own }, code);
}

// Parameters and loss curve against the single-device run. Explains a mismatch by how far the parameters
// moved compared with the reference: a run that moved k× as far in the same direction scaled its gradient.
export function trainingVerdict(run, testCase, core) {
  const bad = unfinished(run);
  if (bad) return bad;
  const { config } = testCase;
  const ref = core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch,
    steps: config.steps, seed: config.seed });
  let assembled;
  try {
    assembled = assembleParams(run.results, config);
  } catch (err) {
    return fail(`The ranks did not return their parameters as the trainer does (${esc(err.message)}). ` +
      "Keep <code>main</code> as it is; write only the function the exercise asks for.");
  }
  const { params, replicaGap } = assembled;
  // Replicas that disagree never applied one common gradient: say that first, it is the more specific diagnosis.
  if (!(replicaGap < EQUALITY)) {
    return fail(`The data-parallel replicas ended with different parameters (largest gap ${formatNumber(replicaGap)}): ` +
      "every replica must apply the same averaged gradient — write the synchronised values back into the arrays the " +
      "optimizer reads.");
  }
  const worst = maxRelativeDifference(params, ref.params);
  if (!(worst < EQUALITY)) {
    const drift = trainingDrift(run, params, config, core, ref), { ratio } = drift;
    const firstLoss = drift.firstLossMatches
      ? "The loss of step 0 matches, so the forward pass is right and the gradient or its sync is not. "
      : `The loss of step 0 is ${formatNumber(drift.firstLoss, 6)} instead of ${formatNumber(ref.losses[0], 6)}: the forward pass already differs. `;
    return fail(`After ${plural(config.steps, "step")} the parameters differ from single-device training by ` +
      `${formatPercent(worst)} (worst: ${drift.name}, which moved ${formatRatio(ratio)} as far as it ` +
      `should). ${firstLoss}${Number.isFinite(ratio) && Math.abs(ratio - 1) > 0.05 ? hintForRatio(ratio, config) : ""}`);
  }
  return pass(`Parameters equal single-device training to ${formatNumber(worst, 2)} (relative) after ${plural(config.steps, "step")}.`);
}

function hintForRatio(ratio, config) {
  const { dp, tp } = config.grid;
  const near = (k) => Math.abs(ratio - k) < 0.05 * k;
  if (dp > 1 && near(dp)) return `That is dp = ${dp}×: the gradients were summed over the replicas, not averaged.`;
  if (tp > 1 && near(tp)) return `That is tp = ${tp}×: something was summed over the tensor-parallel group once too often.`;
  if (dp > 1 && near(1 / dp)) return `That is 1/dp = 1/${dp} of the update: the gradient was divided by dp twice, or the sum over the replicas is missing.`;
  if (near(1 / Math.max(dp, tp))) return "That is 1/p of the update: a sum over the group is missing.";
  return "";
}
