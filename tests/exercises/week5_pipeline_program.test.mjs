// week5_pipeline_program.test.mjs — Week 5's pipeline program (lessons/week5/programs/) on the judge cluster with
// the wasm core: GPipe, 1F1B, interleaved 1F1B and ZB-H1, each run as P Workers exchanging activations and
// gradients, end at core.trainSingle's parameters to 1e-12 running the core's schedules (pipelineTimeline), whose
// unit-time replay (the one a learner's lists get) has the core's makespan and peak activations; the exercises'
// reference generators are the core's schedules op for op over a grid of (P, m, v); a bad list is a readable error,
// a deadlocking one is found before any device waits; and with delays on the virtual clock the bubble measured from
// the spans is the formula's.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { assembleParams, measuredBubble, pipeConfig, pipeInputs, pipeProgram } from "../../lessons/week5/programs/pipe_program.js";
import { coreLists } from "../../web/programs/pipe_lists.js";
import { interleavedSchedule as interleavedExercise } from "../../lessons/week5/exercises/interleaved_schedule.js";
import { zeroBubbleSchedule as zeroBubbleExercise } from "../../lessons/week5/exercises/zero_bubble_schedule.js";
import { peakActivations, replaySchedules } from "../../web/programs/pipe_replay.js";
import { maxRelativeDifference } from "../../web/exercise/compare_training.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
// The exercises' reference solutions, compiled from their text as a learner's code is.
const solved = (exercise, name) => new Function(`${exercise.solution}\nreturn ${name};`)();
const interleavedOps = solved(interleavedExercise, "interleavedOps");
const zeroBubbleOps = solved(zeroBubbleExercise, "zeroBubbleOps");
const run = (config, program = pipeProgram()) =>
  runLocal(program, { ranks: config.devices, inputs: pipeInputs(config), timeoutMs: 60000, core });
const reference = (c) => core.trainSingle({ model: c.model, optimizer: c.optimizer, batch: c.batch, steps: c.steps, seed: c.seed });
const named = (lists) => lists.map((ops) => ops.map((o) => `${o.op}${o.mb}.${o.chunk}`));

for (const [schedule, P, m, v, layers] of [["gpipe", 4, 8, 1, 8], ["1f1b", 4, 8, 1, 4], ["interleaved", 4, 8, 2, 8],
  ["zb-h1", 4, 8, 1, 8], ["interleaved", 2, 4, 3, 6], ["zb-h1", 3, 2, 1, 3], ["1f1b", 3, 6, 1, 6]]) {
  const config = pipeConfig({ schedule, devices: P, microBatches: m, chunksPerDevice: v, batch: 4 * m,
    model: { layers, width: 6, hidden: 10, activation: "gelu", residual: true }, steps: 3 });
  test(`${schedule} P = ${P}, m = ${m}${schedule === "interleaved" ? `, v = ${v}` : ""} on Workers equals one device`, async () => {
    const result = await run(config);
    assert.equal(result.status, "ok", result.error?.message);
    const gap = maxRelativeDifference(assembleParams(result.results, config), reference(config).params);
    assert.ok(gap < 1e-12, `parameters differ by ${gap}`);
    // The devices ran the core's lists; replayed as a learner's would be, they take the core's makespan and peaks.
    const timeline = core.pipelineTimeline({ schedule, devices: P, microBatches: m, chunksPerDevice: v });
    const ours = coreLists(core, config);
    assert.deepEqual(result.results.map((r) => r.ops), ours);
    const replay = replaySchedules(ours);
    assert.equal(replay.makespan, timeline.makespan);
    const byDevice = (a, b) => a.device - b.device || a.start - b.start;
    assert.deepEqual(replay.spans.map(({ after, ...span }) => span).sort(byDevice), [...timeline.timeline].sort(byDevice));
    assert.deepEqual(peakActivations(ours), timeline.peakActivations);
    assert.deepEqual(result.results.map((r) => r.peakActivations), timeline.peakActivations);
  });
}

test("the exercises' reference generators are the core's interleaved 1F1B and ZB-H1, op for op", () => {
  let compared = 0;
  for (let P = 1; P <= 5; P++) {
    for (let m = 1; m <= 12; m++) {
      const zb = { schedule: "zb-h1", devices: P, microBatches: m };
      assert.deepEqual(named(Array.from({ length: P }, (_, d) => zeroBubbleOps(d, P, m))), named(coreLists(core, zb)),
        `zb-h1 P = ${P}, m = ${m}`);
      compared++;
      for (const v of m % P === 0 ? [2, 3, 4] : []) {
        const il = { schedule: "interleaved", devices: P, microBatches: m, chunksPerDevice: v };
        assert.deepEqual(named(Array.from({ length: P }, (_, d) => interleavedOps(d, P, m, v))), named(coreLists(core, il)),
          `interleaved P = ${P}, m = ${m}, v = ${v}`);
        compared++;
      }
    }
  }
  assert.equal(compared, 60 + 3 * 27);
});

test("a bad operation list is an error naming the device and the operation", async () => {
  const config = pipeConfig({ schedule: "zb-h1", devices: 2, microBatches: 2, batch: 4, steps: 1,
    model: { layers: 2, width: 4, hidden: 6, activation: "tanh" } });
  const wBeforeB = `function zeroBubbleOps(device, devices, m) {
  const ops = [];
  for (let mb = 0; mb < m; mb++) ops.push({ op: "F", mb, chunk: device });
  for (let mb = 0; mb < m; mb++) ops.push({ op: "W", mb, chunk: device }, { op: "B", mb, chunk: device });
  return ops;
}`;
  let result = await run(config, pipeProgram({ learnerCode: wBeforeB, replaces: ["zeroBubbleOps"] }));
  assert.equal(result.status, "error");
  assert.match(result.error.message, /device 0, operation 2 .*W\(0, chunk 0\) before its B/);
  const backwardsFirst = `function zeroBubbleOps(device, devices, m) {   // device 0: F0 B0 F1 B1; device 1: F0 F1 B0 B1
  return device === 0 ? [0, 1].flatMap((mb) => [{ op: "F", mb, chunk: 0 }, { op: "B", mb, chunk: 0 }])
    : [{ op: "F", mb: 0, chunk: 1 }, { op: "F", mb: 1, chunk: 1 }, { op: "B", mb: 0, chunk: 1 }, { op: "B", mb: 1, chunk: 1 }];
}`;
  result = await run(config, pipeProgram({ learnerCode: backwardsFirst, replaces: ["zeroBubbleOps"] }));
  assert.equal(result.status, "error");
  assert.match(result.error.message, /the schedules deadlock: device 0 waits at B\(0, chunk 0\) for B\(0, chunk 1\) on device 1; device 1 waits at F\(1, chunk 1\) for F\(1, chunk 0\) on device 0/);
});

test("with delays on the virtual clock, the measured bubble is each schedule's formula", async () => {
  const compare = Object.fromEntries(core.pipelineCompare({ devices: 4, microBatches: 8, chunksPerDevice: 2 }).map((r) => [r.name, r]));
  for (const schedule of ["gpipe", "1f1b", "interleaved", "zb-h1"]) {
    const v = schedule === "interleaved" ? 2 : 1, unit = 10 / v;
    const config = pipeConfig({ schedule, steps: 2, model: { layers: 8, width: 6, hidden: 10, activation: "tanh" },
      delayMs: { F: unit, B: unit, W: unit } });
    const result = await run(config);
    assert.equal(result.status, "ok", result.error?.message);
    const measured = measuredBubble(result);
    const want = compare[schedule].formulaOverIdeal;
    assert.ok(Math.abs(measured.overIdeal - want) < 0.02, `${schedule}: measured ${measured.overIdeal}, formula ${want}`);
    assert.ok(Math.abs(measured.bubbleFraction - want / (1 + want)) < 0.02, `${schedule}: fraction ${measured.bubbleFraction}`);
    assert.equal(measured.timeline.length, 4 * v * 8 * (schedule === "zb-h1" ? 3 : 2));
    measured.opBusy.forEach((b, d) => assert.ok(Math.abs(b - measured.busy[d]) < 0.01 * b, `device ${d}: ops ${b} s, spans ${measured.busy[d]} s`));
  }
});

// Uneven micro-batches, as the core cuts them (core/parallel/micro_batches.cpp: the first B mod m one row longer):
// B = 10 in m = 4 is 3, 3, 2, 2 rows, each micro-batch's loss weighted by its rows — still one device's training.
for (const schedule of ["1f1b", "zb-h1", "interleaved"]) {
  test(`${schedule}: a batch of 10 rows in 4 micro-batches (3, 3, 2, 2) on Workers equals one device`, async () => {
    const config = pipeConfig({ schedule, devices: 2, microBatches: 4, chunksPerDevice: 2, batch: 10,
      model: { layers: 4, width: 6, hidden: 10, activation: "gelu", residual: true }, steps: 3 });
    const result = await run(config);
    assert.equal(result.status, "ok", result.error?.message);
    const gap = maxRelativeDifference(assembleParams(result.results, config), reference(config).params);
    assert.ok(gap < 1e-12, `parameters differ by ${gap}`);
  });
}
