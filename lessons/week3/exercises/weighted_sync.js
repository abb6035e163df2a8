// weighted_sync.js — code exercise "w3-weighted": the gradient sync when replicas hold shards of different sizes
// (the last batch of an epoch, a data loader without drop_last, heterogeneous workers). Each replica's gradient is
// the mean over ITS rows; the full-batch gradient weighs every row alike: Σ_d rows_d·g_d / Σ_d rows_d. Checked by
// training equality with one device on unequal shards, and by the trace: one all-reduce per step.
import { intBetween } from "../../../web/exercise/params.js";
import { sourceOf } from "../programs/dp_program.js";
import { allReducesOf, dpCase, dpExercise, fail, trainingVerdict } from "./dp_checks.js";

const starter = `// grads: this replica's gradient tensors (Float64Arrays), each the MEAN over its own rows of the batch — and
// rows is how many it had. Replicas hold different numbers of rows, and none knows the others'.
// dp.size, dp.rank, and await dp.allReduce(buffer) (sums a Float64Array over the replicas, in place).
// Leave in every grads[i] the gradient of the mean loss over ALL rows of the global batch, with ONE all-reduce.
async function syncWeighted(grads, rows, dp) {
  // TODO
}
`;

const solution = sourceOf("syncWeighted");

const wrongs = [
  { name: "the plain mean of the replicas (right only for equal shards)",
    code: `async function syncWeighted(grads, rows, dp) {
  for (const g of grads) {
    await dp.allReduce(g);
    for (let e = 0; e < g.length; e++) g[e] /= dp.size;
  }
}
`,
    expect: /a plain mean of the replicas' gradients weighs a row of a small shard more/ },
  { name: "weighted by rows, divided by P·rows of this replica",
    code: solution.replace("flat[offset + e] / flat[total]", "flat[offset + e] / (dp.size * rows)"),
    expect: /replicas ended with different parameters.*divide by the same number/ },
  { name: "weighted by rows, then divided by P instead of the total rows",
    code: solution.replace("flat[offset + e] / flat[total]", "flat[offset + e] / dp.size"),
    expect: /divided by P, not by the total rows/ },
  { name: "right, but the row count sent in a second all-reduce",
    code: `async function syncWeighted(grads, rows, dp) {
  const count = new Float64Array([rows]);
  await dp.allReduce(count);
  for (const g of grads) {
    for (let e = 0; e < g.length; e++) g[e] *= rows;
    await dp.allReduce(g);
    for (let e = 0; e < g.length; e++) g[e] /= count[0];
  }
}
`,
    expect: /Training matches, but the step ran \d+ all-reduces.*one/ },
];

// Shards of different sizes summing to B: each replica 1 … 12 rows, at least two sizes.
function shardsFor(rng, P) {
  for (;;) {
    const s = Array.from({ length: P }, () => intBetween(rng, 1, 12));
    if (new Set(s).size > 1) return s;
  }
}
const unequal = (rng, P, fields = {}) => {
  const shards = shardsFor(rng, P);
  return dpCase(P, { shards, batch: shards.reduce((a, b) => a + b, 0), seed: intBetween(rng, 1, 1000), ...fields });
};

// One SGD step first: a wrong scale then shows exactly, so the checker can name it.
const cases = (rng) => [unequal(rng, intBetween(rng, 3, 4), { steps: 1 }), unequal(rng, 2, { optimizer: { kind: "momentum", lr: 0.05 } })];
// Hidden: 7 replicas, one of them with a single row.
const edgeCases = (rng) => {
  const shards = [1, ...shardsFor(rng, 6)];
  return [dpCase(7, { shards, batch: shards.reduce((a, b) => a + b, 0), seed: intBetween(rng, 1, 1000) })];
};

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const calls = allReducesOf(run, testCase.config.steps - 1, testCase.ranks);
  if (calls.length !== 1) {
    return fail(`Training matches, but the step ran ${calls.length} all-reduces; the exercise asks for one. The row count ` +
      "can travel in the same buffer as the gradients (one more value): every extra all-reduce costs another 2(P − 1)·α.");
  }
  return verdict;
}

export const weightedSync = dpExercise("syncWeighted", {
  id: "w3-weighted",
  title: "Unequal shards: a weighted all-reduce",
  prompt: `<p>The replicas hold shards of different sizes. Each computed the mean gradient of its own <code>rows</code>
    rows. Write <code>syncWeighted(grads, rows, dp)</code> so that every replica ends with the gradient of the mean loss
    over the whole global batch, using <strong>one</strong> <code>dp.allReduce</code>. No replica knows the others'
    row counts.</p>
    <p>The trainer runs on the Workers with your function on shards such as [3, 11, 5, 8], and every replica is compared with
    single-device training on the whole batch.</p>`,
  hints: [
    "The full-batch loss is a mean over all B rows. Replica d's gradient is a mean over rows_d rows, so it stands for rows_d rows: the full gradient is Σ_d rows_d·g_d / Σ_d rows_d.",
    "Multiply your gradient by <code>rows</code> before the all-reduce. The sum of the rows is unknown: put <code>rows</code> in one extra value at the end of the buffer, and the all-reduce sums it too.",
    "One buffer of Ψ + 1 values: the weighted gradients, then the row count. After the all-reduce divide every gradient value by the last value.",
  ],
  solutionText: `<p>Weigh each replica by the rows it saw and divide by the total, which rides along as one extra value of the
    same all-reduce. A plain mean of the replicas would give each replica the same say however many rows it had — wrong as
    soon as shards differ. Frameworks meet this at the end of an epoch (PyTorch's <code>DistributedSampler</code> pads or
    drops rows so that shards are equal; <code>Join</code> handles replicas that run out of data), and a loss summed
    rather than averaged over rows sidesteps it: then summing the replicas' gradients and dividing by the global row count
    is exact.</p>`,
  starterExpect: /^The replicas ended with different parameters/,   // the starter synchronises nothing: each replica its own step
}, { starter, solution, wrongs, cases, edgeCases, check });
