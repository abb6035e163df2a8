// one_f_one_b.js — code exercise "lab-1f1b": a 1F1B schedule generator. The learner returns a stage's
// ordered operations; the trainer runs them on real pipeline stages (a bad order deadlocks or is named by the
// trainer's check), training must equal one device, and the activations the stages actually held must follow
// 1F1B: stage s of P has exactly min(m, P − s) micro-batches in flight at its peak — fewer means the pipeline
// never fills, more is GPipe's memory — and, replayed with unit forward and backward times, the schedule finishes
// in (m + P − 1)·(t_f + t_b), as 1F1B does (Narayanan et al. 2021): "newest pending backward first" and other
// orders that respect the dependencies but not 1F1B's take longer, and the message says where the time goes.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { fail, labCase, labExercise, trainingVerdict } from "./lab_checks.js";
import { replaySchedules } from "../../../web/programs/pipe_replay.js";

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

const wrongs = [
  // GPipe's order: correct training, but every micro-batch's activations alive at once.
  { name: "GPipe's order (all forwards, then all backwards)",
    code: `function oneFOneB(stage, stages, microBatches) {
  const ops = [];
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "F", mb });
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "B", mb });
  return ops;
}
`,
    expect: /stage \d+ of \d+ held \d+ micro-batches .* 1F1B holds min\(m, P − s\)/ },
  { name: "each micro-batch forward and backward before the next (the pipeline never fills)",
    code: `function oneFOneB(stage, stages, microBatches) {
  const ops = [];
  for (let mb = 0; mb < microBatches; mb++) ops.push({ op: "F", mb }, { op: "B", mb });
  return ops;
}
`,
    expect: /never fills/ },
  { name: "the newest pending backward first",
    code: `function oneFOneB(stage, stages, microBatches) {
  const warmup = Math.min(stages - stage - 1, microBatches);
  const ops = [], pending = [];
  for (let mb = 0; mb < warmup; mb++) { ops.push({ op: "F", mb }); pending.push(mb); }
  for (let mb = warmup; mb < microBatches; mb++) {
    ops.push({ op: "F", mb });
    pending.push(mb);
    ops.push({ op: "B", mb: pending.pop() });       // the newest, not the oldest
  }
  while (pending.length) ops.push({ op: "B", mb: pending.pop() });
  return ops;
}
`,
    expect: /finishes at t = \d+; 1F1B finishes at \(m \+ P − 1\)·\(t_f \+ t_b\) = \d+.*oldest pending backward/ },
  { name: "one warm-up forward too many",
    code: solution.replace("const warmup = Math.min(stages - stage - 1, microBatches);", "const warmup = Math.min(stages - stage, microBatches);"),
    expect: /held \d+ micro-batches .* 1F1B holds min\(m, P − s\) = \d+\. Start a backward as soon as the pipeline is full/ },
  { name: "a backward before its forward",
    code: solution.replace(`    ops.push({ op: "F", mb: warmup + i });
    ops.push({ op: "B", mb: i });`, `    ops.push({ op: "B", mb: i });
    ops.push({ op: "F", mb: warmup + i });`),
    expect: /B\(\d+, chunk \d+\) before its forward/ },
  { name: "the cool-down backwards forgotten",
    code: solution.replace(`  for (let mb = microBatches - warmup; mb < microBatches; mb++) ops.push({ op: "B", mb });\n`, ""),
    expect: /the schedule runs \d+ forwards and \d+ backwards, expected \d+ of each/ },
];

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

// Hidden: more stages than micro-batches (m < P) on 8 stages, and 8 micro-batches on 4 stages inside dp = 2.
function edgeCases(rng) {
  return [
    labCase({ grid: { dp: 1, tp: 1, pp: 8 }, microBatches: 3, schedule: "1f1b", batch: 24, steps: 1,
      model: { layers: 8, width: 4, hidden: 8, activation: "gelu", residual: true }, seed: intBetween(rng, 1, 1000) }),
    labCase({ grid: { dp: 2, tp: 1, pp: 4 }, microBatches: 8, schedule: "1f1b", batch: 32, steps: 1,
      model: { layers: 4, width: 4, hidden: 8, activation: "tanh", residual: true }, seed: intBetween(rng, 1, 1000) }),
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
  // The time: the stages' schedules (what the trainer ran, from rank d = 0, t = 0 of each stage) with unit times.
  const stages = Array.from({ length: P }, (_, s) => run.results.find((r) => r.coord.p === s && r.coord.d === 0 && r.coord.t === 0).schedule);
  const { makespan, timeline } = unitReplay(stages);
  const ideal = (m + P - 1) * 2;
  if (makespan > ideal) {
    return fail(`Training matches and every stage held min(m, P − s) micro-batches, but with unit forward and backward ` +
      `times (t_f = t_b = 1) your schedule finishes at t = ${makespan}; 1F1B finishes at (m + P − 1)·(t_f + t_b) = ` +
      `${ideal} (m = ${m}, P = ${P}). ${whyLate(stages, timeline)}`);
  }
  return { ...verdict, message: `${verdict.message} Every stage held min(m, P − s) micro-batches at its peak, and the ` +
    `schedule takes (m + P − 1)·(t_f + t_b) = ${ideal} time units.` };
}

// Replays the stages' operations ("F0", "B3": v = 1, stage s holds chunk s) with t_f = t_b = 1 on the course's
// replay (web/programs/pipe_replay.js; a full backward is backwardInput + backwardWeight = 1 + 0): F(mb) on stage s
// waits for F(mb) on s − 1, B(mb) for B(mb) on s + 1 (the last stage's B follows its own F). → { makespan, timeline }
// with timeline[s] = [{ op, start, after }] (`after`: "1:B0", stage 1's B0, the operation it waited for, or null).
export function unitReplay(stages) {
  const lists = stages.map((ops, s) => ops.map((o) => ({ op: o[0], mb: Number(o.slice(1)), chunk: s })));
  const { makespan, spans } = replaySchedules(lists, { forward: 1, backwardInput: 1, backwardWeight: 0 });
  const waited = (after) => after && after.replace(/^([FB]\d+):(\d+)$/, "$2:$1");
  const timeline = stages.map((_, s) => spans.filter((x) => x.device === s)
    .map((x) => ({ op: `${x.kind === "F" ? "F" : "B"}${x.microBatch}`, start: x.start, after: waited(x.after) })));
  return { makespan, timeline };
}

// Why a schedule is slower than 1F1B, in one sentence: forwards out of order, a newer backward taken before an
// older one, or else the first time a stage sits idle waiting for another.
function whyLate(stages, timeline) {
  for (const [s, ops] of stages.entries()) {
    const pending = [];
    for (const op of ops) {
      const mb = Number(op.slice(1));
      if (op[0] === "F") {
        if (pending.length && mb < Math.max(...pending)) return `Stage ${s} runs its forwards out of order (F${mb} after F${Math.max(...pending)}): micro-batches enter the pipeline in order.`;
        pending.push(mb);
      } else {
        const oldest = Math.min(...pending);
        if (mb !== oldest) {
          return `Stage ${s} runs B${mb} while the older micro-batch ${oldest} is still waiting for its backward: 1F1B ` +
            "takes the oldest pending backward, whose gradient comes back from the next stage first — a newer one " +
            "makes the stage wait for a gradient that is still travelling, and every stage below it waits too.";
        }
        pending.splice(pending.indexOf(mb), 1);
      }
    }
  }
  const idle = timeline.flatMap((ops, s) => ops.map((o, i) => ({ s, ...o, prev: i ? ops[i - 1].start + 1 : 0 })))
    .filter((o) => o.start > o.prev).sort((a, b) => a.prev - b.prev || a.s - b.s)[0];
  return idle ? `Stage ${idle.s} sits idle from t = ${idle.prev} to t = ${idle.start}, waiting for ${idle.after.replace(/^(\d+):/, "stage $1's ")} before its ${idle.op}.` : "";
}

export const oneFOneBSchedule = labExercise({
  id: "lab-1f1b",
  title: "Pipeline parallelism: a 1F1B schedule",
  prompt: `<p>GPipe runs all m forwards, then all m backwards, so every stage holds m micro-batches of activations.
    1F1B runs the same work in another order and holds at most P − s on stage s. Write
    <code>oneFOneB(stage, stages, microBatches)</code>, returning the stage's operations
    <code>{op: "F" | "B", mb}</code> in order.</p>
    <p>The trainer runs your schedule on 2 to 4 real pipeline stages, with m from 2 to 8 and with data parallelism
    around them. The checker compares the trained parameters with one device, reads how many micro-batches each
    stage actually kept, and replays your schedule with unit forward and backward times: it must finish in
    (m + P − 1)·(t_f + t_b), as 1F1B does.</p>`,
  replaces: ["oneFOneB"],
  hints: [
    "The last stage (s = P − 1) can run B right after each F: F0 B0 F1 B1 … The first stage must first push " +
      "P − 1 micro-batches into the pipeline before the first gradient can come back.",
    "Warm-up: min(P − s − 1, m) forwards. Steady state: for the remaining m − warm-up micro-batches, one F (the next " +
      "new micro-batch) then one B (the oldest pending one). Cool-down: the last warm-up backwards.",
    "Any order in which every B follows its own F trains correctly; the peak count and the time — (m + P − 1)·(t_f + t_b) " +
      "with unit forward and backward times — are what make it 1F1B.",
  ],
  solutionText: `<p>Stage s starts with P − s − 1 forwards — exactly enough for micro-batch 0 to reach the last stage by
    the time the stage does its next forward — and then alternates, taking the oldest pending backward each time. At
    most P − s micro-batches are alive on stage s, against m for GPipe, while the bubble stays
    (P − 1)/(m + P − 1): so m can grow to shrink the bubble without growing activation memory (Narayanan et al.
    2021, PipeDream-Flush; Huang et al. 2019 for GPipe).</p>`,
  starterExpect: /runs 0 forwards and 0 backwards, expected 5 of each \(m = 5 micro-batches × 1 chunk\)/,   // an empty schedule
}, { starter, solution, wrongs, cases, edgeCases, check });
