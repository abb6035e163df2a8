// accumulation.js — code exercise "w3-accumulate": gradient accumulation. Each replica runs k micro-batches of
// rows/k rows, sums their gradients locally, and synchronises ONCE: the same step as a k× larger batch per
// replica, with 1/k of the communication per sample. Checked by training equality with one device on the whole
// batch, and by the trace: exactly one all-reduce of Ψ values per step.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { sourceOf } from "../programs/dp_program.js";
import { allReducesOf, dpCase, dpExercise, fail, trainingVerdict } from "./dp_checks.js";

const starter = `// k: micro-batches per step. await microGrads(j) runs forward and backward on micro-batch j (j = 0 … k − 1)
// and resolves to its gradient tensors (Float64Arrays, each the MEAN over that micro-batch's rows).
// grads: zero-filled tensors of the same shapes; leave in them the gradient of the mean loss over every row of
// every replica's k micro-batches. dp.size, dp.rank, await dp.allReduce(buffer) (sums over replicas, in place).
// Use ONE all-reduce per step, however large k is.
async function accumulateAndSync(k, microGrads, grads, dp) {
  // TODO
}
`;

const solution = sourceOf("accumulateAndSync");

const wrongs = [
  { name: "an all-reduce after every micro-batch",
    code: `async function accumulateAndSync(k, microGrads, grads, dp) {
  for (let j = 0; j < k; j++) {
    const g = await microGrads(j);
    for (const [i, t] of g.entries()) {
      await dp.allReduce(t);
      for (let e = 0; e < t.length; e++) grads[i][e] += t[e] / (k * dp.size);
    }
  }
}
`,
    expect: /Training matches, but the step ran \d+ all-reduces.*k× the communication/ },
  { name: "micro-batch gradients summed, not averaged over k",
    code: solution.replace("/ (k * dp.size)", "/ dp.size"),
    expect: /k = \d×: the micro-batch gradients were summed/ },
  { name: "each micro-batch overwrites the last",
    code: solution.replace("grads[i][e] += t[e]", "grads[i][e] = t[e]"),
    expect: /parameters differ from single-device training/ },
  { name: "averaged over k but not over the replicas",
    code: solution.replace("/ (k * dp.size)", "/ k"),
    expect: /P = \d×: the gradients were summed over the replicas/ },
];

const accumulated = (rng, P, fields = {}) => {
  const k = pick(rng, [2, 3, 4, 5].filter((x) => x !== P));   // k ≠ P, so a scale of k or of P names its mistake
  return dpCase(P, { accumulation: k, batch: P * k * intBetween(rng, 2, 4), seed: intBetween(rng, 1, 1000), ...fields });
};
// One SGD step first: a wrong scale then shows exactly, so the checker can name it.
const cases = (rng) => [accumulated(rng, intBetween(rng, 2, 4), { steps: 1 }), accumulated(rng, 2, { optimizer: { kind: "adam", lr: 0.01 } })];
// Hidden: 6 replicas, 8 micro-batches of one row each.
const edgeCases = (rng) => [dpCase(6, { accumulation: 8, batch: 48, seed: intBetween(rng, 1, 1000) })];

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config, ranks } = testCase;
  const calls = allReducesOf(run, config.steps - 1, ranks);
  if (calls.length !== 1) {
    return fail(`Training matches, but the step ran ${calls.length} all-reduces with k = ${config.accumulation}: that is ` +
      "k× the communication (or more) for the same update. Sum the micro-batches' gradients locally and all-reduce once, " +
      "after the last micro-batch — PyTorch's <code>no_sync()</code> for the first k − 1.");
  }
  return verdict;
}

export const accumulation = dpExercise("accumulateAndSync", {
  id: "w3-accumulate",
  title: "Gradient accumulation: k micro-steps, one sync",
  prompt: `<p>Each replica's rows are split into <code>k</code> micro-batches (to fit memory, or to make a large global
    batch from few devices). Write <code>accumulateAndSync(k, microGrads, grads, dp)</code>: run the k micro-batches, sum
    their gradients locally, and synchronise <strong>once</strong>, so the step equals one step on the whole global
    batch.</p>
    <p>The trainer runs on the Workers with your function; every replica is compared with single-device training, and the
    trace must show one all-reduce per step.</p>`,
  hints: [
    "All micro-batches have the same number of rows, so the mean over this replica's rows is the mean of its k micro-batch gradients.",
    "Add each <code>await microGrads(j)</code> into <code>grads</code>; only after the loop copy everything into one buffer and all-reduce it.",
    "Divide by k (micro-batches) and by <code>dp.size</code> (replicas): the result is the mean over all P·k micro-batches.",
  ],
  solutionText: `<p>The gradient of a mean over rows is the mean of the micro-batches' gradients, so summing locally and
    dividing by k·P at the end is exact; the communication happens once per optimizer step instead of once per micro-batch.
    PyTorch DDP spells this <code>with model.no_sync():</code> around the first k − 1 backward passes (Li et al. 2020);
    DeepSpeed's <code>gradient_accumulation_steps</code> does the same. Memory holds one micro-batch's activations, and the
    all-reduce's cost is shared by k× as many samples.</p>`,
  starterExpect: /differ from single-device training .*which moved 0× as far as it should/,   // the starter leaves grads zero
}, { starter, solution, wrongs, cases, edgeCases, check });
