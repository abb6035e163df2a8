// one_f_one_b.js — code exercise "lab-1f1b": a 1F1B schedule generator. The learner returns a stage's
// ordered operations; the trainer runs them on real pipeline stages (a bad order deadlocks or is named by the
// trainer's check), training must equal one device, and the activations the stages actually held must follow
// 1F1B: stage s of P has exactly min(m, P − s) micro-batches in flight at its peak — fewer means the pipeline
// never fills, more is GPipe's memory.
import { intBetween, pick } from "../../web/exercise/params.js";
import { fail, labCase, programWith, trainingVerdict } from "./lab_checks.js";

const starter = `// The operations of pipeline stage \`stage\` (0 … stages − 1) for one training step of \`microBatches\`
// micro-batches, in order: {op: "F", mb} runs micro-batch mb forward through this stage's blocks (receiving its
// activation from stage − 1), {op: "B", mb} runs it backward (receiving its gradient from stage + 1).
// 1F1B: a few warm-up forwards, then alternate one forward and one backward, then the remaining backwards.
function oneFOneB(stage, stages, microBatches) {
  const ops = [];
  // TODO
  return ops;
}
`;

const solution = `// 1F1B (PipeDream-Flush): P − s − 1 warm-up forwards fill the pipeline below stage s; then every forward is
// followed by the oldest pending backward, so at most P − s micro-batches are alive; then drain.
function oneFOneB(stage, stages, microBatches) {
  const warmup = Math.min(stages - stage - 1, microBatches);
  const ops = [];
  for (let mb = 0; mb < warmup; mb++) ops.push({ op: "F", mb });
  for (let i = 0; i < microBatches - warmup; i++) {
    ops.push({ op: "F", mb: warmup + i });
    ops.push({ op: "B", mb: i });
  }
  for (let mb = microBatches - warmup; mb < microBatches; mb++) ops.push({ op: "B", mb });
  return ops;
}
`;

// GPipe's order: correct training, but every micro-batch's activations alive at once.
const wrong = `function oneFOneB(stage, stages, microBatches) {
  const ops = [];
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "F", mb });
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "B", mb });
  return ops;
}
`;

function cases(rng) {
  const P = pick(rng, [3, 4]);
  return [
    labCase({ grid: { dp: 1, tp: 1, pp: 4 }, microBatches: intBetween(rng, 5, 8), schedule: "1f1b", batch: 840,
      model: { layers: 4, width: 4, hidden: 8, activation: "gelu", residual: true }, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 1, tp: 1, pp: P }, microBatches: 2, schedule: "1f1b", batch: 24,
      model: { layers: 12, width: 4, hidden: 8, activation: "tanh", residual: true }, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 2, tp: 1, pp: 2 }, microBatches: 3, schedule: "1f1b", batch: 24, seed: intBetween(rng, 1, 1000) }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config } = testCase, P = config.grid.pp, m = config.microBatches;
  for (const r of run.results) {
    const s = r.coord.p, want = Math.min(m, P - s);
    if (r.peakInFlight !== want) {
      return fail(`Training matches, but stage ${s} of ${P} held ${r.peakInFlight} micro-batches of activations at once ` +
        `(m = ${m}); 1F1B holds min(m, P − s) = ${want}. ` + (r.peakInFlight > want
        ? "Start a backward as soon as the pipeline is full: after P − s − 1 warm-up forwards, alternate F and B."
        : "The pipeline never fills: run P − s − 1 forwards before the first backward, or the stages wait on each other."));
    }
  }
  return { ...verdict, message: `${verdict.message} Every stage held min(m, P − s) micro-batches at its peak.` };
}

export const oneFOneBSchedule = {
  id: "lab-1f1b",
  kind: "code",
  title: "Pipeline parallelism: a 1F1B schedule",
  prompt: `<p>GPipe runs all m forwards, then all m backwards, so every stage holds m micro-batches of activations.
    1F1B runs the same work in another order and holds at most P − s on stage s. Write
    <code>oneFOneB(stage, stages, microBatches)</code>, returning the stage's operations
    <code>{op: "F" | "B", mb}</code> in order.</p>
    <p>The trainer runs your schedule on 2 to 4 real pipeline stages, with m from 2 to 8 and with data parallelism
    around them. The checker compares the trained parameters with one device and reads how many micro-batches each
    stage actually kept.</p>`,
  ranks: 4,
  timeoutMs: 20000,
  program: programWith(["oneFOneB"]),
  starter,
  solution,
  wrong,
  cases,
  check,
  hints: [
    "The last stage (s = P − 1) can run B right after each F: F0 B0 F1 B1 … The first stage must first push " +
      "P − 1 micro-batches into the pipeline before the first gradient can come back.",
    "Warm-up: min(P − s − 1, m) forwards. Steady state: for the remaining m − warm-up micro-batches, one F (the next " +
      "new micro-batch) then one B (the oldest pending one). Cool-down: the last warm-up backwards.",
    "Sends never block, so any order in which every B follows its own F trains correctly; the peak count is what " +
      "makes it 1F1B.",
  ],
  solutionText: `<p>Stage s starts with P − s − 1 forwards — exactly enough for micro-batch 0 to reach the last stage by
    the time the stage does its next forward — and then alternates, taking the oldest pending backward each time. At
    most P − s micro-batches are alive on stage s, against m for GPipe, while the bubble stays
    (P − 1)/(m + P − 1): so m can grow to shrink the bubble without growing activation memory (Narayanan et al.
    2021, PipeDream-Flush; Huang et al. 2019 for GPipe).</p>`,
};
