// zero_bubble_schedule.js — code exercise "w5-zero-bubble": ZB-H1 (Qi et al., ICLR 2024) as an operation list per
// device, with the backward split into B (the input gradient, which the previous device waits for) and W (the
// weight gradient, which nobody waits for). The pipeline runs on the Workers with the core's split kernels
// (blockBackwardInput, blockBackwardWeight); checked: training equals one device, no device holds more than
// min(P, m) micro-batches (1F1B's peak: ZB-H1 costs no memory), and the lists replayed with t_f = t_b = t_w = 1
// finish at the core's ZB-H1 makespan, 3m + P − 1 for m ≥ P, against 1F1B's 3(m + P − 1).
import { intBetween, pick } from "../../../web/exercise/params.js";
import { coreSchedule, fail, listsOf, overPeak, pipeCase, pipeExercise, trainingVerdict, unitMakespan } from "./pipe_checks.js";

const starter = `// The operations of device \`device\` (0 … devices − 1; device d holds chunk d) for one step of \`microBatches\`
// micro-batches, in order: {op: "F", mb, chunk} forward, {op: "B", mb, chunk} the input gradient only (what
// device d − 1 waits for), {op: "W", mb, chunk} the weight gradient (nobody waits for it; it needs its B, and the
// micro-batch's activations stay until it has run). A B with no W is a full backward, as in 1F1B.
// ZB-H1: 1F1B's order, with each W put off to fill the time a device would otherwise wait — but never holding more
// micro-batches than 1F1B does.
function zeroBubbleOps(device, devices, microBatches) {
  const ops = [];
  // TODO
  return ops;
}
`;

// The reference solution, as the text a learner writes (a graded term's site leaves it out);
// tests/exercises/week5_pipeline_program.test.mjs proves its lists the core's (core/pipeline/zero_bubble_h1.cpp).
// ZB-H1 (Qi et al. 2024): 1F1B with the backward split. min(P − d, m) warm-up forwards; then for each micro-batch
// B, and while forwards remain the next forward, preceded by the oldest W when the device already holds P
// micro-batches (1F1B's peak, so memory does not grow); in the drain a W after each B, then the Ws still owed.
// With t_f = t_b = t_w the step takes 3m + P − 1 against 1F1B's 3(m + P − 1): a third of the bubble.
const solution = `function zeroBubbleOps(device, devices, microBatches) {
  const P = devices, m = microBatches, ops = [];
  let forwards = 0, weights = 0;
  const forward = () => ops.push({ op: "F", mb: forwards++, chunk: device });
  const weight = () => ops.push({ op: "W", mb: weights++, chunk: device });
  while (forwards < Math.min(P - device, m)) forward();
  for (let k = 0; k < m; k++) {
    ops.push({ op: "B", mb: k, chunk: device });
    if (forwards < m) {
      if (forwards - weights === P) weight();
      forward();
    } else {
      weight();
    }
  }
  while (weights < m) weight();
  return ops;
}
`;

const wrongs = [
  { name: "each W right after its B (1F1B with the backward split)",
    code: `function zeroBubbleOps(device, devices, microBatches) {
  const warmup = Math.min(devices - device - 1, microBatches), ops = [];
  const back = (mb) => ops.push({ op: "B", mb, chunk: device }, { op: "W", mb, chunk: device });
  for (let mb = 0; mb < warmup; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let i = 0; i < microBatches - warmup; i++) { ops.push({ op: "F", mb: warmup + i, chunk: device }); back(i); }
  for (let mb = microBatches - warmup; mb < microBatches; mb++) back(mb);
  return ops;
}
`,
    expect: /every W right after its B: that W delays the device's next forward/ },
  { name: "every W put off to the end",
    code: `function zeroBubbleOps(device, devices, microBatches) {
  const warmup = Math.min(devices - device - 1, microBatches), ops = [];
  for (let mb = 0; mb < warmup; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let i = 0; i < microBatches - warmup; i++) ops.push({ op: "F", mb: warmup + i, chunk: device }, { op: "B", mb: i, chunk: device });
  for (let mb = microBatches - warmup; mb < microBatches; mb++) ops.push({ op: "B", mb, chunk: device });
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "W", mb, chunk: device });
  return ops;
}
`,
    expect: /device \d+ held \d+ micro-batches at once.*ZB-H1 holds at most min\(P, m\)/ },
  { name: "W before its B",
    code: solution.replace(`    ops.push({ op: "B", mb: k, chunk: device });
    if (forwards < m) {`, `    if (weights === k) weight();
    ops.push({ op: "B", mb: k, chunk: device });
    if (forwards < m) {`),
    expect: /W\(\d+, chunk \d+\) before its B/ },
  { name: "no W at all: full backwards (plain 1F1B)",
    code: `function zeroBubbleOps(device, devices, microBatches) {
  const warmup = Math.min(devices - device - 1, microBatches), ops = [];
  for (let mb = 0; mb < warmup; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let i = 0; i < microBatches - warmup; i++) ops.push({ op: "F", mb: warmup + i, chunk: device }, { op: "B", mb: i, chunk: device });
  for (let mb = microBatches - warmup; mb < microBatches; mb++) ops.push({ op: "B", mb, chunk: device });
  return ops;
}
`,
    expect: /no W: every B is a full backward/ },
  { name: "1F1B's warm-up (P − d − 1 forwards) with the Ws as ZB-H1's",
    code: solution.replace("while (forwards < Math.min(P - device, m)) forward();", "while (forwards < Math.min(P - device - 1, m)) forward();"),
    expect: /Device \d+ reached B\(0, chunk \d+\) before running F\(0, chunk \d+\): too few warm-up forwards/ },
];

function cases(rng) {
  return [
    pipeCase(rng, { schedule: "zb-h1", devices: 4, microBatches: 8 }),
    pipeCase(rng, { schedule: "zb-h1", devices: 3, microBatches: intBetween(rng, 4, 6), blocksPerChunk: 2 }),
    pipeCase(rng, { schedule: "zb-h1", devices: 2, microBatches: pick(rng, [3, 5]) }),
  ];
}

// Hidden: m = P, and fewer micro-batches than devices on 6 devices.
function edgeCases(rng) {
  return [
    pipeCase(rng, { schedule: "zb-h1", devices: 4, microBatches: 4 }),
    pipeCase(rng, { schedule: "zb-h1", devices: 6, microBatches: 3 }),
  ];
}

function check(run, testCase, core) {
  const verdict = trainingVerdict(run, testCase, core);
  if (!verdict.pass) return verdict;
  const { config } = testCase, P = config.devices, m = config.microBatches;
  const lists = listsOf(run), want = coreSchedule(core, config), makespan = unitMakespan(run);
  if (!lists.some((ops) => ops.some((o) => o.op === "W"))) {
    return fail(`Training matches, but your lists have no W: every B is a full backward, which is 1F1B — it finishes ` +
      `at t = ${makespan} with t_f = t_b = t_w = 1 against ZB-H1's ${want.makespan}. Split each backward: B first ` +
      "(the previous device waits for it), its W later, where the device would otherwise sit idle.");
  }
  const over = overPeak(run, () => Math.min(P, m));
  if (over) {
    return fail(`Training matches, but device ${over.device} held ${over.held} micro-batches at once (P = ${P}, m = ${m}): ` +
      `a micro-batch's activations stay until its W. ZB-H1 holds at most min(P, m) = ${over.bound} — 1F1B's peak — ` +
      "so it costs no memory: run the oldest W before a forward that would take the device past P.");
  }
  if (makespan > want.makespan) {
    const eager = lists.every((ops) => ops.every((o, i) => o.op !== "B" || (ops[i + 1]?.op === "W" && ops[i + 1].mb === o.mb)));
    return fail(`Training matches and memory stays at 1F1B's, but with t_f = t_b = t_w = 1 your lists finish at ` +
      `t = ${makespan}; ZB-H1 finishes at ${want.makespan} (P = ${P}, m = ${m}; 3m + P − 1 for m ≥ P, against 1F1B's ` +
      `3(m + P − 1) = ${3 * (m + P - 1)}). ` + (eager
      ? "You run every W right after its B: that W delays the device's next forward, which the next device is waiting for, so most of 1F1B's bubble stays. Run the forward first and put each W off to where the device would otherwise wait."
      : "Start with min(P − d, m) forwards, then after each B run the next forward (preceded by the oldest W once the device holds P micro-batches), and the remaining Ws at the end."));
  }
  return { ...verdict, message: `${verdict.message} No device held more than min(P, m) = ${Math.min(P, m)} micro-batches, ` +
    `and the lists take ${want.makespan} time units with t_f = t_b = t_w = 1, against 1F1B's ${3 * (m + P - 1)}.` };
}

export const zeroBubbleSchedule = pipeExercise("zeroBubbleOps", {
  id: "w5-zero-bubble",
  title: "A zero-bubble (ZB-H1) schedule on the Workers",
  prompt: `<p>The course's backward already comes in two halves: B, the input gradient the previous device waits for,
    and W, the weight gradient nobody waits for. ZB-H1 keeps 1F1B's order but puts each W off to fill the time a device
    would otherwise sit idle. Write <code>zeroBubbleOps(device, devices, microBatches)</code>, returning device d's
    operations <code>{op: "F" | "B" | "W", mb, chunk: d}</code> in order.</p>
    <p>Every device is a Worker holding one chunk; B runs the core's <code>blockBackwardInput</code>, W its
    <code>blockBackwardWeight</code>. The checker compares the trained parameters with one device, reads how many
    micro-batches each device held (until their W), and replays your lists with t_f = t_b = t_w = 1: they must finish
    when the core's ZB-H1 does — 3m + P − 1 for m ≥ P — with no device above 1F1B's peak of min(P, m).</p>`,
  hints: [
    "Device d starts with min(P − d, m) forwards — one more than 1F1B's warm-up: its first B comes right after.",
    "Then for each micro-batch k in order: B(k); if forwards remain, the next forward — but first W(oldest) when the " +
      "device already holds P micro-batches (F run, W not yet).",
    "When no forwards remain, run a W after each B, then the Ws still owed. W(k) always comes after B(k).",
  ],
  solutionText: `<p>B is what the previous device waits for, so it goes as early as 1F1B's full backward would; W waits
    until the device would otherwise be idle, or until it holds P micro-batches (1F1B's peak on device 0), so memory
    does not grow. With t_f = t_b = t_w the step takes 3m + P − 1 instead of 1F1B's 3(m + P − 1): the bubble
    (P − 1)(t_f + t_b − t_w) is a third of 1F1B's (Qi, Wan, Huang, Lin, “Zero Bubble Pipeline Parallelism”, ICLR 2024).
    The numbers are 1F1B's bit for bit: B then W computes exactly the products of the full backward.</p>`,
  starterExpect: /runs 0 forwards and 0 backwards, expected 8 of each \(m = 8 micro-batches × 1 chunk\)/,   // an empty schedule
}, { starter, solution, wrongs, cases, edgeCases, check });
