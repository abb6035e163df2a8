// dp_sync.js — code exercise "lab-dp-sync": the data-parallel gradient sync of the lab's trainer, written by
// the learner: average every gradient tensor over the dp replicas with ONE all-reduce per step (a single
// bucket, as PyTorch DDP with one bucket). Checked by training equality with one device, and by the trace:
// exactly one ring all-reduce of Ψ_rank numbers per replica group per step.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { hubOf } from "../../../web/exercise/run_checks.js";
import { coordOf } from "../programs/lab_grid.js";
import { fail, labCase, labExercise, trainingVerdict } from "./lab_checks.js";
import { messagesOf } from "../../../web/exercise/tagged_messages.js";

const starter = `// grads: this rank's gradient tensors (Float64Arrays: W_in and W_out of each block it holds), computed on
// its own rows of the batch. dp: its data-parallel group —
//   dp.size, dp.rank, and await dp.allReduce(buffer)  (sums a Float64Array over the group, in place).
// Leave in every grads[i] the MEAN over the dp replicas, using ONE all-reduce for all tensors together.
async function syncGradients(grads, dp) {
  // TODO: copy every tensor into one bucket, all-reduce it once, divide, copy back.
}
`;

const solution = `// One bucket: one all-reduce of all Ψ gradient values per step — one α instead of one per tensor.
async function syncGradients(grads, dp) {
  const bucket = new Float64Array(grads.reduce((n, g) => n + g.length, 0));
  let offset = 0;
  for (const g of grads) { bucket.set(g, offset); offset += g.length; }
  await dp.allReduce(bucket);                        // Σ over the replicas
  offset = 0;
  for (const g of grads) {
    for (let i = 0; i < g.length; i++) g[i] = bucket[offset + i] / dp.size;   // the mean: ∇L = (1/dp)·Σ g_d
    offset += g.length;
  }
}
`;

const wrongs = [
  // The classic slip: sum, but never divide — every replica applies dp× the gradient.
  { name: "summed, never divided by dp",
    code: solution.replace("bucket[offset + i] / dp.size", "bucket[offset + i]"),
    expect: /the gradients were summed over the replicas, not averaged/ },
  { name: "one all-reduce per tensor instead of one bucket",
    code: `async function syncGradients(grads, dp) {
  for (const g of grads) {
    await dp.allReduce(g);
    for (let i = 0; i < g.length; i++) g[i] /= dp.size;
  }
}
`,
    expect: /Training matches, but rank \d+ sent \d+ all-reduce messages in a step: that is \d+ all-reduces.*one bucket/ },
  { name: "the mean computed but never copied back into grads",
    code: solution.replace("g[i] = bucket[offset + i] / dp.size;", "bucket[offset + i] /= dp.size;"),
    expect: /replicas ended with different parameters.*write the synchronised values back/ },
  { name: "divided by dp twice",
    code: solution.replace("bucket[offset + i] / dp.size", "bucket[offset + i] / dp.size / dp.size"),
    expect: /1\/dp = 1\/\d of the update: the gradient was divided by dp twice/ },
  { name: "a central average: every replica's gradients to replica 0 and back",
    code: `async function syncGradients(grads, dp) {
  const bucket = new Float64Array(grads.reduce((n, g) => n + g.length, 0));
  let offset = 0;
  for (const g of grads) { bucket.set(g, offset); offset += g.length; }
  if (dp.rank === 0) {
    for (let i = 1; i < dp.size; i++) {
      const got = await dp.recv(i);
      for (let e = 0; e < bucket.length; e++) bucket[e] += got[e];
    }
    for (let e = 0; e < bucket.length; e++) bucket[e] /= dp.size;
    for (let i = 1; i < dp.size; i++) dp.send(i, bucket);
  } else {
    dp.send(0, bucket);
    bucket.set(await dp.recv(0));
  }
  offset = 0;
  for (const g of grads) { g.set(bucket.subarray(offset, offset + g.length)); offset += g.length; }
}
`,
    expect: /central computation|not a whole number of ring all-reduces/ },
];

function cases(rng) {
  const dp = intBetween(rng, 2, 4);
  return [
    // One SGD step: a wrong scale shows exactly (the update is −lr·g), so the checker can name it.
    labCase({ grid: { dp, tp: 1, pp: 1 }, batch: 12 * dp, steps: 1, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 2, tp: pick(rng, [1, 2]), pp: 2 }, microBatches: 2, batch: 16, seed: intBetween(rng, 1, 1000),
      optimizer: { kind: "adam", lr: 0.01 } }),
  ];
}

// Hidden: 8 replicas, and dp = 3 around tensor parallelism.
function edgeCases(rng) {
  return [
    labCase({ grid: { dp: 8, tp: 1, pp: 1 }, batch: 32, steps: 1, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 3, tp: 2, pp: 1 }, batch: 12, seed: intBetween(rng, 1, 1000), optimizer: { kind: "momentum", lr: 0.02 } }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config } = testCase, p = config.grid.dp;
  const last = config.steps - 1;
  const sync = messagesOf(run.trace, "all-reduce:dp", last);
  const hub = hubOf(sync.map((m) => ({ src: coordOf(m.src, config.grid).d, dst: coordOf(m.dst, config.grid).d })), p);
  if (hub !== null) {
    return fail(`Training matches, but every gradient message went to or from replica ${hub}: that is a central ` +
      "computation (gather to one replica, average there, send back), not an all-reduce — that replica's link carries " +
      "p − 1 times the data. Use <code>dp.allReduce</code>.");
  }
  for (let rank = 0; rank < testCase.ranks; rank++) {
    const sent = sync.filter((m) => m.src === rank);
    if (sent.length !== 2 * (p - 1)) {
      const calls = sent.length / (2 * (p - 1));
      return fail(`Training matches, but rank ${rank} sent ${sent.length} all-reduce messages in a step: that is ` +
        `${Number.isInteger(calls) ? `${calls} all-reduces` : "not a whole number of ring all-reduces"}, and the ` +
        `exercise asks for one (a ring all-reduce over ${p} replicas sends 2(p − 1) = ${2 * (p - 1)} messages). ` +
        (Number.isInteger(calls) ? "Put every tensor into one bucket first."
          : "Call <code>dp.allReduce</code> once, on one bucket of every tensor; sending the gradients to one replica " +
            "and back is a central computation, not an all-reduce."));
    }
  }
  return verdict;
}

export const dpSync = labExercise({
  id: "lab-dp-sync",
  title: "Data parallelism: the gradient sync",
  prompt: `<p>Each data-parallel replica computes gradients on its own B/dp rows. Write
    <code>syncGradients(grads, dp)</code> so that every replica ends with the mean gradient
    ∇L = (1/dp)·Σ<sub>d</sub> g<sub>d</sub>, using <strong>one</strong> <code>dp.allReduce</code> per step for all
    tensors together.</p>
    <p>The whole lab trainer then runs on the Workers with your function — on a pure data-parallel grid and on a
    2 × tp × 2 grid with pipeline stages — and the checker compares the parameters after the run with single-device
    training on the same batches, and counts your all-reduce messages in the trace.</p>`,
  replaces: ["syncGradients"],
  hints: [
    "The loss is a mean over the batch. Replica d's gradient is the mean over its B/dp rows, so the full-batch " +
      "gradient is the mean of the replicas' gradients — a sum over the group divided by <code>dp.size</code>.",
    "One all-reduce for all tensors: allocate <code>new Float64Array(total)</code>, copy each tensor in at a running " +
      "offset with <code>bucket.set(g, offset)</code>, all-reduce the bucket, then copy the slices back.",
    "Write the result INTO the arrays of <code>grads</code> (<code>g[i] = …</code>): the trainer's optimizer reads them.",
  ],
  solutionText: `<p>A replica's gradient is the mean over its rows, so the global gradient is the mean of the replicas':
    an all-reduce (sum) then a division by dp. Packing every tensor into one buffer makes the sync a single all-reduce:
    2(dp − 1) ring messages per rank instead of 2(dp − 1) per tensor — the α term of Week 1's bucketing argument.
    PyTorch DDP does the same with 25 MiB buckets (<code>bucket_cap_mb = 25</code>, in MiB), launched during backward as soon as a bucket's gradients are ready,
    so the communication overlaps the rest of backward (Li et al. 2020).</p>`,
  starterExpect: /^The data-parallel replicas ended with different parameters/,   // the starter synchronises nothing
}, { starter, solution, wrongs, cases, edgeCases, check });
