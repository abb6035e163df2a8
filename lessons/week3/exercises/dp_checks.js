// dp_checks.js — what Week 3's code exercises share. Each has the learner write ONE piece of the data-parallel
// trainer (programs/ddp_sync.js); the whole trainer then runs on the Workers and is judged by training equality
// — every replica's parameters against core.trainSingle on the same batches — and by what the trace shows about
// the all-reduces (how many, how large, launched when). Pure functions, no DOM.
import { esc } from "../../../web/exercise/params.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { formatNumber, formatPercent, formatRatio, plural } from "../../../web/units.js";
import { dpConfig, dpInputs, dpProgram, replicaGap } from "../programs/dp_program.js";
import { maxRelativeDifference } from "../../../web/exercise/compare_training.js";
import { trainingDrift } from "../../../web/exercise/training_drift.js";
import { trainerExercise } from "../../../web/exercise/code_exercise.js";

export { fail, pass };

// A correct run differs from one device only in the order of floating-point sums (≈ 1e-16 after a few steps).
export const EQUALITY = 1e-9;
export const SMALL_MODEL = Object.freeze({ layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true });

// One case: `ranks` replicas of a small model; every field of the trainer's configuration can be overridden.
export function dpCase(ranks, fields) {
  const config = dpConfig({ model: SMALL_MODEL, steps: 2, batch: 8 * ranks, ...fields });
  return { ranks, inputs: dpInputs(config, ranks), config };
}

export const programWith = (name) => (code) => dpProgram({ learnerCode: code, replaces: [name] });

// A code exercise whose `replaces` function runs inside the data-parallel trainer on 4 Workers.
export function dpExercise(replaces, own, code) {
  return trainerExercise({ ranks: 4, timeoutMs: 30000, program: programWith(replaces),
    trains: "a model with the data-parallel trainer", ...own }, code);
}

// Parameters against the single-device run. A run that moved its parameters k× as far as it should have
// scaled its gradient by k: named when k is P, 1/P, k or the shards' imbalance.
export function trainingVerdict(run, testCase, core) {
  const bad = unfinished(run);
  if (bad) return bad;
  const { config, ranks } = testCase;
  if (!run.results.every((r) => Array.isArray(r?.params))) {
    return fail("The replicas did not return their parameters as the trainer does. Keep <code>main</code> as it is; " +
      "write only the function the exercise asks for.");
  }
  const gap = replicaGap(run.results);
  if (!(gap < EQUALITY)) {
    return fail(`The replicas ended with different parameters (largest gap ${formatNumber(gap)}): every replica must ` +
      "apply the same synchronised gradient — write the all-reduced, averaged values back into <code>grads</code>, for " +
      "every value of every tensor." + (config.shards ? " With shards of different sizes every replica must divide by the " +
        "same number — the total rows of the global batch, which only the all-reduce can tell it — not by its own rows." : ""));
  }
  const ref = core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch, steps: config.steps, seed: config.seed });
  const params = run.results[0].params;
  const worst = maxRelativeDifference(params, ref.params);
  if (worst < EQUALITY) {
    return pass(`Every replica equals single-device training to ${formatNumber(worst, 2)} (relative) after ${plural(config.steps, "step")}.`);
  }
  const { name, ratio, firstLossMatches } = trainingDrift(run, params, config, core, ref);
  const first = firstLossMatches
    ? "The loss of step 0 matches, so each replica's forward pass is right and the synchronised gradient is not. " : "";
  return fail(`After ${plural(config.steps, "step")} the parameters differ from single-device training by ` +
    `${formatPercent(worst)} (worst: ${name}, which moved ${formatRatio(ratio)} as far as it should). ${first}` +
    hintForRatio(ratio, ranks, config));
}

function hintForRatio(ratio, P, config) {
  const near = (x) => Math.abs(ratio - x) < 0.03 * x;
  const k = config.accumulation ?? 1;
  if (config.shards && near(config.batch / P)) {
    return `That is B/P = ${formatNumber(config.batch / P)}×: the gradients were weighted by rows and summed, then divided by P, not by the total rows B.`;
  }
  if (near(P)) return `That is P = ${P}×: the gradients were summed over the replicas, not averaged.`;
  if (k > 1 && near(k)) return `That is k = ${k}×: the micro-batch gradients were summed, not averaged over the k micro-batches.`;
  if (k > 1 && near(1 / k)) return `That is 1/k = 1/${k}: divided by the k micro-batches twice, or only one micro-batch's gradient kept.`;
  if (near(1 / P)) return `That is 1/P = 1/${P} of the update: divided by P twice, or the sum over the replicas is missing.`;
  if (config.shards) {
    return `The shards hold [${config.shards.join(", ")}] rows: a plain mean of the replicas' gradients weighs a row of a small ` +
      "shard more than a row of a large one. Weigh each replica's gradient by its rows and divide by the total.";
  }
  return "";
}

// The all-reduces of one step, from the trace: per call (tag "all-reduce:dp|step|call"), in launch order,
// the number of values it reduced — a ring over P ranks sends 2(P − 1) chunks per rank, 2(P − 1)·n values in all.
export function allReducesOf(run, step, P) {
  const calls = new Map();
  for (const m of run.trace ?? []) {
    const [label, s, c] = String(m.tag).split("|");
    if (label !== "all-reduce:dp" || Number(s) !== step) continue;
    const entry = calls.get(Number(c)) ?? calls.set(Number(c), { call: Number(c), bytes: 0, firstSend: Infinity }).get(Number(c));
    entry.bytes += m.bytes;
    entry.firstSend = Math.min(entry.firstSend, m.sendTime);
  }
  return [...calls.values()].sort((a, b) => a.call - b.call).map((e) => ({ ...e, values: e.bytes / (16 * (P - 1)) }));
}

// The learner's code threw inside the trainer's part: say where, in its words.
export const quoted = (text) => `<code>${esc(text)}</code>`;
