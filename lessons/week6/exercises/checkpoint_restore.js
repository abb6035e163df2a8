// checkpoint_restore.js — code exercise "w6-checkpoint": save and restore a rank's training state, so that a run
// killed mid-way and restarted from its last checkpoint ends exactly where an uninterrupted run ends. The learner
// writes save(state) → a snapshot of plain data, and restore(snapshot) → a state; the trainer of
// programs/checkpoint_program.js runs on the Workers (data parallel, Adam with warm-up, input dropout), checkpoints
// every few steps, is killed twice in one checkpoint interval (the second restore reads the same snapshot again) and
// once more later.
//
// Checked against the same training run here without failures (referenceRun): every restored state must equal the
// uninterrupted run's state at the checkpoint's step, field by field (so the message names what was lost), and the
// final parameters must be equal to the bit.
import { intBetween } from "../../../web/exercise/params.js";
import { fail, pass, unfinished } from "../../../web/exercise/run_checks.js";
import { checkpointProgram, referenceRun } from "../programs/checkpoint_program.js";
import { codeExercise } from "../../../web/exercise/code_exercise.js";

const starter = `// A rank's training state:
//   state.params, state.m, state.v   Float64Arrays of n numbers: the weights and Adam's two moments
//   state.step                       steps done so far (Adam's bias correction and the warm-up read it)
//   state.data = { cursor, rng }     rows of the shard read so far; the dropout generator's state (a number)
// save(state) must return a snapshot that stays valid after the rank is killed (its memory overwritten);
// restore(snapshot) must return a state to continue training from. emptyState(n) gives a state of zeros.
function save(state) {
  return state;   // TODO
}

function restore(snapshot) {
  return snapshot;   // TODO
}
`;

const solution = `// A snapshot is a deep copy of everything the next step reads: weights, both moments, the step counter and
// the data loader's position (cursor and generator). Restore copies again: one snapshot may be restored twice.
function save(state) {
  return { params: state.params.slice(), m: state.m.slice(), v: state.v.slice(), step: state.step,
           data: { cursor: state.data.cursor, rng: state.data.rng } };
}

function restore(snapshot) {
  return { params: snapshot.params.slice(), m: snapshot.m.slice(), v: snapshot.v.slice(), step: snapshot.step,
           data: { cursor: snapshot.data.cursor, rng: snapshot.data.rng } };
}
`;

const wrongs = [
  { name: "a shallow copy saved: the arrays are shared with the live state",
    code: solution.replace(/function save\(state\) \{[\s\S]*?\n\}/, "function save(state) {\n  return { ...state };\n}"),
    expect: /first restore.*NaN.*save/ },
  { name: "the arrays copied, but the data loader's object shared with the live state",
    code: solution.replace("data: { cursor: state.data.cursor, rng: state.data.rng } };", "data: state.data };"),
    expect: /data cursor came back as NaN.*shares <code>state\.data<\/code>/ },
  { name: "the optimizer moments not restored (fresh zeros)",
    code: solution.replace("return { params: snapshot.params.slice(), m: snapshot.m.slice(), v: snapshot.v.slice(),",
      "const n = snapshot.params.length;\n  return { params: snapshot.params.slice(), m: new Float64Array(n), v: new Float64Array(n),"),
    expect: /Adam's (first|second) moment/ },
  { name: "the step counter not saved: restarts at 0",
    code: solution.replace("step: state.step,\n", "\n").replace("step: snapshot.step,", "step: snapshot.step ?? 0,"),
    expect: /step counter/ },
  { name: "the data cursor not saved: batches read again",
    code: solution.replace("data: { cursor: snapshot.data.cursor, rng: snapshot.data.rng }", "data: { cursor: 0, rng: snapshot.data.rng }"),
    expect: /data cursor/ },
  { name: "restore hands out the snapshot's own arrays",
    code: solution.replace(/function restore\(snapshot\) \{[\s\S]*?\n\}/, "function restore(snapshot) {\n  return { ...snapshot, data: { ...snapshot.data } };\n}"),
    expect: /restore .*snapshot's own arrays/ },
  { name: "the dropout generator restarted from its seed",
    code: solution.replace("data: { cursor: snapshot.data.cursor, rng: snapshot.data.rng }",
      "data: { cursor: snapshot.data.cursor, rng: emptyState(1).data.rng }"),
    expect: /random generator/ },
];

// A case: P ranks, checkpoints every `every` steps, failures at c + 1 and c + 2 (both roll back to checkpoint c) and
// one later one, not on a checkpoint.
function ckptCase(rng, ranks) {
  const every = intBetween(rng, 3, 5), c = every * intBetween(rng, 1, 2);
  const later = c + every + intBetween(rng, 1, every - 1);
  const cfg = { features: intBetween(rng, 5, 9), rows: intBetween(rng, 9, 15), batch: 4, lr: 0.05, warmup: 6,
                seed: intBetween(rng, 1, 10000), every, steps: later + intBetween(rng, 2, 4), failures: [c + 1, c + 2, later] };
  return { ranks, cfg, inputs: Array.from({ length: ranks }, () => cfg) };
}
const cases = (rng) => [ckptCase(rng, 2), ckptCase(rng, 3)];
const edgeCases = (rng) => [ckptCase(rng, 4)];

const FIELDS = [
  ["m", "Adam's first moment m", "the optimizer moments are training state: without them Adam restarts its averages from zero"],
  ["v", "Adam's second moment v", "the optimizer moments are training state: without them Adam restarts its averages from zero"],
  ["step", "the step counter", "Adam's bias correction 1 − β^t and the learning-rate warm-up read it, so a run that restarts at step 0 warms up again"],
  ["cursor", "the data cursor", "without it the restarted rank reads its first batches again instead of the ones after the checkpoint"],
  ["rng", "the dropout random generator's state", "without it the restarted rank draws different dropout masks than the run it replaces"],
];
const same = (a, b) => (Array.isArray(b) ? Array.isArray(a) && a.length === b.length && a.every((x, i) => Object.is(x, b[i])) : Object.is(a, b));

function check(run, testCase) {
  const stop = unfinished(run);
  if (stop) return stop;
  const { cfg, ranks } = testCase;
  const ref = referenceRun(cfg, ranks);
  for (let r = 0; r < ranks; r++) {
    const out = run.results?.[r];
    if (!out || !Array.isArray(out.restores)) {
      return fail(`Rank ${r} did not return what the trainer returns. Write only <code>save</code> and <code>restore</code>.`);
    }
    for (const [i, { state }] of out.restores.entries()) {
      const k = cfg.failures[i], from = Math.floor(k / cfg.every) * cfg.every, want = ref.after[from][r];
      const which = i === 0 ? "The first restore" : `Restore ${i + 1}`;
      const head = `${which} on rank ${r} (killed after step ${k}, back to the checkpoint of step ${from})`;
      if (!same(state.params, want.params)) {
        if (!state.params) {
          return fail(`${head} returned no array of parameters (<code>state.params</code> has no length). If the snapshot went ` +
            "through JSON, a Float64Array came back as a plain object {\"0\": …}: copy arrays with <code>.slice()</code> " +
            "(or <code>structuredClone</code>) instead.");
        }
        if (state.params?.some?.((x) => Number.isNaN(x))) {
          const sameSnapshot = i > 0 && Math.floor(cfg.failures[i - 1] / cfg.every) * cfg.every === from;
          return fail(!sameSnapshot
            ? `${head} gave parameters that are NaN: what the killed process's memory held. Your snapshot shares its arrays ` +
              "with the live state, so killing the rank destroyed the checkpoint too: save must copy (<code>state.params.slice()</code>), " +
              "not keep a reference or a shallow copy (<code>{ ...state }</code> copies the object, not its arrays)."
            : `${head} gave parameters that are NaN, though the first restore from the same snapshot was right: your restore ` +
              "hands out the snapshot's own arrays, so training after the first restore changed the snapshot, and the kill " +
              "overwrote it. Copy on restore too: one snapshot may be restored more than once.");
        }
        return fail(`${head} gave parameters that differ from the uninterrupted run's at step ${from}. The snapshot must hold ` +
          "the weights as they were when it was taken.");
      }
      for (const [key, label, why] of FIELDS) {
        // NaN is what a kill leaves in the rank's memory: the snapshot held a reference, not a copy.
        const killed = Array.isArray(state[key]) ? state[key].some((x) => Number.isNaN(x)) : Number.isNaN(state[key]);
        if (killed) {
          const holder = key === "cursor" || key === "rng" ? "<code>state.data</code>, an object" : `<code>state.${key}</code>, an array`;
          return fail(`${head}: ${label} came back as NaN, what the killed process's memory held. Your snapshot shares ` +
            `${holder}, with the live state, so killing the rank destroyed it too: save must copy it ` +
            "(<code>data: { cursor: state.data.cursor, rng: state.data.rng }</code>, <code>.slice()</code> for an array).");
        }
        if (!same(state[key], want[key])) {
          const shown = Array.isArray(state[key]) ? (state[key].every((x) => x === 0) ? "all zeros" : "different numbers")
            : String(state[key]);
          return fail(`${head}: ${label} came back as ${shown}, and the uninterrupted run had ` +
            `${Array.isArray(want[key]) ? "other numbers" : want[key]} there — ${why}. Save it and restore it.`);
        }
      }
    }
    if (out.restores.length !== cfg.failures.length) {
      return fail(`Rank ${r} restored ${out.restores.length} times; the run kills it after steps ${cfg.failures.join(", ")}. ` +
        "Keep the step counter in the snapshot.");
    }
    if (!Array.isArray(out.params)) return fail(`Rank ${r} could not train on after a restore. Write only <code>save</code> and <code>restore</code>.`);
    const gap = out.params.reduce((a, x, j) => Math.max(a, Math.abs(x - ref.params[j])), 0);
    if (!same(out.params, ref.params)) {
      return fail(`Rank ${r}'s final parameters differ from the uninterrupted run's by up to ${gap.toPrecision(3)}; a correct ` +
        "checkpoint makes them equal to the bit.");
    }
  }
  return pass(`Killed after steps ${cfg.failures.join(", ")} and restored from the checkpoints of steps ` +
    `${cfg.failures.map((k) => Math.floor(k / cfg.every) * cfg.every).join(", ")}, every rank ended with exactly the ` +
    `parameters of the uninterrupted ${cfg.steps}-step run.`);
}

export const checkpointRestore = codeExercise({
  id: "w6-checkpoint",
  title: "Checkpoint and restore a rank's state",
  prompt: `<p>The ranks train a model with Adam (bias correction, a learning-rate warm-up) and input dropout, reading their
    shards in order. Every few steps each rank keeps <code>snapshot = save(state)</code>; then it is killed — its memory
    is overwritten — and training continues from <code>restore(snapshot)</code>. Write <code>save</code> and
    <code>restore</code> so the run ends exactly where an uninterrupted one ends.</p>
    <p>The checker runs the trainer on the Workers, kills every rank twice inside one checkpoint interval and once more
    later, compares every restored state with the uninterrupted run's at the checkpoint's step, and the final parameters
    to the bit.</p>`,
  ranks: 2,
  timeoutMs: 15000,
  program: checkpointProgram,
  exempt: { thirdAttempt: "every run trains a model; week6_code.test.mjs judges attempts 3 and 4" },
  summarizeResult: (value) => (value?.restores ? `${value.restores.length} restores; final parameters ${value.params.map((x) => x.toFixed(3)).join(", ")}` : undefined),
  hints: [
    "Everything the next step reads is state: the weights, both Adam moments, <code>step</code> (the bias correction " +
      "1 − β<sup>t</sup> and the warm-up use it), and the data loader's <code>cursor</code> and <code>rng</code>.",
    "<code>{ ...state }</code> copies the object but not its arrays: the snapshot would still point at the arrays that " +
      "training changes and the kill destroys. Copy each array with <code>.slice()</code>, and the <code>data</code> object too.",
    "Restore must copy as well: after two failures in one checkpoint interval the same snapshot is restored twice.",
  ],
  solutionText: `<p>A checkpoint is everything the next step depends on, copied. The weights alone are not enough: Adam's
    moments carry the last ~1/(1 − β) steps of gradients, its bias correction and any learning-rate schedule read the
    step counter, and the data loader's position decides which samples come next — restart it and the model sees some
    batches twice and others never. Random generators (dropout, augmentation, sampling) are state too. PyTorch's
    Distributed Checkpoint saves model and optimizer state dicts; the step, the scheduler and the sampler are saved by
    the training loop (torchtitan and Megatron-LM save them all), and a stateful data loader resumes mid-epoch. Copying
    matters because a checkpoint is taken while training goes on: an asynchronous save first copies the tensors to host
    memory, then writes them out.</p>`,
  starterExpect: /gave parameters that are NaN: what the killed process's memory held/,   // the starter's snapshot shares its arrays
}, { starter, solution, wrongs, cases, edgeCases, check });
