// lab_program.test.mjs — the lab's rank program, run on the local cluster with the wasm core: every grid
// shape trains to the single-device parameters (core.trainSingle), its trace moves the bytes the C++
// strategies log (core.trainCompare), and its measured memory is what the accountant (core.stepCost) says.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import {
  LAB_DEFAULTS, assembleParams, bytesByKind, labInputs, labProgram,
} from "../../lessons/lab/programs/lab_program.js";
import { lossesFromProgress, maxRelativeDifference } from "../../web/exercise/compare_training.js";
import { coreLists } from "../../web/programs/pipe_lists.js";
import { labLayout } from "../../lessons/lab/programs/lab_grid.js";
import { coreComparison } from "../../lessons/lab/widgets/train_report.js";
import { peakActivations, replaySchedules } from "../../web/programs/pipe_replay.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

const SMALL = { layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true };
const lab = (overrides) => ({ ...LAB_DEFAULTS, model: SMALL, batch: 16, steps: 3, microBatches: 1, ...overrides });

async function train(config, program = labProgram()) {
  const ranks = config.grid.dp * config.grid.tp * config.grid.pp;
  return runLocal(program, { ranks, inputs: labInputs(config), timeoutMs: 20000, core });
}

function reference(config) {
  return core.trainSingle({ model: config.model, optimizer: config.optimizer, batch: config.batch,
    steps: config.steps, seed: config.seed });
}

const SHAPES = [
  { grid: { dp: 1, tp: 1, pp: 1 } },
  { grid: { dp: 2, tp: 1, pp: 1 } },
  { grid: { dp: 4, tp: 1, pp: 1 }, optimizer: { kind: "sgd", lr: 0.05 } },
  { grid: { dp: 2, tp: 1, pp: 1 }, fsdp: true },
  { grid: { dp: 3, tp: 1, pp: 1 }, fsdp: true, batch: 12 },   // shards of unequal size
  { grid: { dp: 1, tp: 2, pp: 1 } },
  { grid: { dp: 1, tp: 4, pp: 1 }, optimizer: { kind: "momentum", lr: 0.02 } },
  { grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 4, schedule: "gpipe" },
  { grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 4, schedule: "1f1b" },
  { grid: { dp: 2, tp: 2, pp: 1 }, fsdp: true },
  { grid: { dp: 2, tp: 2, pp: 2 }, microBatches: 2, schedule: "1f1b" },
  { grid: { dp: 2, tp: 2, pp: 2 }, microBatches: 4, schedule: "gpipe", fsdp: true },
];

// Trains `config` on the Workers' program and asserts the run equals core.trainSingle's: the parameters to 1e-12
// (relative), the dp replicas to 1e-14, and every step's loss. → the run.
async function trainsAsOneDevice(config) {
  const run = await train(config);
  assert.equal(run.status, "ok", run.error?.message);
  const { params, replicaGap } = assembleParams(run.results, config);
  const ref = reference(config);
  assert.ok(maxRelativeDifference(params, ref.params) < 1e-12, `params differ by ${maxRelativeDifference(params, ref.params)}`);
  assert.ok(replicaGap < 1e-14, `dp replicas drifted apart by ${replicaGap}`);
  const losses = lossesFromProgress(run.progress, config.steps);
  losses.forEach((l, s) => assert.ok(Math.abs(l - ref.losses[s]) <= 1e-12 * ref.losses[s], `step ${s}: ${l} vs ${ref.losses[s]}`));
  return run;
}

for (const shape of SHAPES) {
  const config = lab(shape);
  const name = `dp=${config.grid.dp} tp=${config.grid.tp} pp=${config.grid.pp}` +
    `${config.fsdp ? " FSDP" : ""} m=${config.microBatches} ${config.schedule} ${config.optimizer.kind}`;
  test(`lab ${name}: equals single-device training after ${config.steps} steps`, async () => {
    await trainsAsOneDevice(config);
  });
}

// The bytes the busiest rank sends in a step, by kind, against the C++ strategy's own log.
const BYTES = [
  ["dp-bucketed", { grid: { dp: 4, tp: 1, pp: 1 } }, { bucketBytes: 1 << 30 }],
  ["zero3", { grid: { dp: 4, tp: 1, pp: 1 }, fsdp: true }, {}],
  ["tp", { grid: { dp: 1, tp: 4, pp: 1 } }, {}],
  ["pp-gpipe", { grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 4, schedule: "gpipe" }, {}],
];
for (const [strategy, shape, extra] of BYTES) {
  test(`lab bytes per step equal the C++ ${strategy} strategy's`, async () => {
    const config = lab(shape);
    const run = await train(config);
    assert.equal(run.status, "ok", run.error?.message);
    const measured = bytesByKind(run.trace, config.steps - 1);
    const logged = core.trainCompare({ strategy, grid: config.grid, microBatches: config.microBatches, ...extra,
      model: config.model, optimizer: config.optimizer, batch: config.batch, steps: 1, seed: config.seed }).commBytes;
    assert.deepEqual(Object.keys(measured).sort(), Object.keys(logged).sort());
    for (const [kind, bytes] of Object.entries(logged)) assert.equal(measured[kind].busiest, bytes, kind);
  });
}

// Memory the ranks actually held against the accountant (8-byte values, Adam's two states).
const MEMORY = [
  ["tp", { grid: { dp: 1, tp: 2, pp: 1 } }],
  ["zero3", { grid: { dp: 2, tp: 1, pp: 1 }, fsdp: true }],
  ["pp-1f1b", { grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 4, schedule: "1f1b" }],
  ["pp-gpipe", { grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 4, schedule: "gpipe" }],
];
for (const [strategy, shape] of MEMORY) {
  test(`lab memory per rank equals the accountant's for ${strategy}`, async () => {
    const config = lab(shape);
    const run = await train(config);
    assert.equal(run.status, "ok", run.error?.message);
    const model = core.stepCost({ strategy, grid: config.grid, microBatches: config.microBatches, model: config.model,
      batch: config.batch, flops: 1e12, alpha: 1e-6, beta: 1e-9, elementBytes: 8, optimizerStates: 2 }).memoryPerRank;
    run.results.forEach((r, rank) => {
      for (const key of ["params", "grads", "optimizer", "activations"]) {
        assert.equal(r.memory[key], model[rank][key], `rank ${rank} ${key}`);
      }
    });
  });
}

test("1F1B keeps at most P − s micro-batches in flight, GPipe all m", async () => {
  for (const schedule of ["1f1b", "gpipe"]) {
    const config = lab({ grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 8, schedule });
    const run = await train(config);
    assert.equal(run.status, "ok", run.error?.message);
    run.results.forEach((r) => assert.equal(r.peakInFlight, schedule === "gpipe" ? 8 : Math.min(8, 4 - r.coord.p)));
  }
  assert.deepEqual(coreLists(core, { schedule: "1f1b", devices: 2, microBatches: 3 })[0].map((o) => o.op + o.mb),
    ["F0", "F1", "B0", "F2", "B1", "B2"]);
});

test("a configuration that does not fit the grid is a readable error, on the page and in every rank", async () => {
  const config = lab({ grid: { dp: 1, tp: 3, pp: 1 } });
  assert.throws(() => labInputs(config), /tp = 3 must divide the hidden width F = 16/);
  const run = await runLocal(labProgram(), { ranks: 3, inputs: [config, config, config], timeoutMs: 5000, core });
  assert.equal(run.status, "error");
  assert.match(run.error.message, /tp = 3 must divide the hidden width F = 16/);
});

test("a learner's function replaces the reference; a schedule that runs B before F is named", async () => {
  // SGD: Adam would hide a gradient scaled by dp (its update m/√v does not change when g is scaled).
  const config = lab({ grid: { dp: 2, tp: 1, pp: 1 }, optimizer: { kind: "sgd", lr: 0.05 } });
  const summing = labProgram({ replaces: ["syncGradients"], learnerCode: `async function syncGradients(grads, dp) {
  for (const g of grads) await dp.allReduce(g);   // sums, never divides
}` });
  const run = await train(config, summing);
  assert.equal(run.status, "ok", run.error?.message);
  assert.ok(maxRelativeDifference(assembleParams(run.results, config).params, reference(config).params) > 1e-3);

  const backwards = labProgram({ replaces: ["oneFOneB"], learnerCode: `function oneFOneB(stage, stages, m) {
  return [{ op: "B", mb: 0 }, { op: "F", mb: 0 }];
}` });
  const bad = await train(lab({ grid: { dp: 1, tp: 1, pp: 2 }, schedule: "1f1b" }), backwards);
  assert.equal(bad.status, "error");
  assert.match(bad.error.message, /stage 0, operation 0 .*: B\(0, chunk 0\) before its forward/);
});

// Week 5's interleaved 1F1B (v = 2) and ZB-H1 (split B and W kernels) on the lab's grid: the same training as one
// device, and the operations each stage ran are the schedule's — replayed with unit times per chunk (t_F = t_B =
// t_W = 1) they take the schedule's makespan, and the activations a stage held at once are the schedule's peak.
const L8 = { ...SMALL, layers: 8 };
const NEW_SCHEDULES = [
  { grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 4 },
  { grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 4, model: L8 },
  { grid: { dp: 2, tp: 2, pp: 2 }, microBatches: 2 },
  { grid: { dp: 2, tp: 1, pp: 2 }, microBatches: 2, fsdp: true, optimizer: { kind: "sgd", lr: 0.05 } },
  { grid: { dp: 1, tp: 2, pp: 2 }, microBatches: 4, fsdp: true },
];
// Unit time per chunk op; a full backward (no W of its own) takes 2. v chunks per stage.
const MAKESPAN = {
  "interleaved": (P, m) => 3 * 2 * m + 3 * (P - 1),   // 3vm + 3(P − 1): the bubble (P − 1)/(vm + P − 1) of the step
  "zb-h1": (P, m) => 3 * m + P - 1,                   // against 1F1B's 3(m + P − 1): a third of the bubble
};
for (const schedule of ["interleaved", "zb-h1"]) {
  for (const shape of NEW_SCHEDULES) {
    const config = lab({ ...shape, schedule });
    const { dp, tp, pp } = config.grid, m = config.microBatches;
    test(`lab ${schedule} dp=${dp} tp=${tp} pp=${pp}${config.fsdp ? " FSDP" : ""} m=${m}: equals one device; ops, makespan and peak are the schedule's`, async () => {
      const run = await trainsAsOneDevice(config);

      const ran = Array.from({ length: pp }, (_, p) => run.results.find((r) => r.coord.p === p && r.coord.d === 0 && r.coord.t === 0).ops);
      const lists = coreLists(core, { devices: pp, microBatches: m, schedule, chunksPerDevice: 2 });
      assert.deepEqual(ran, lists, "every stage ran the core's operation list");
      if (schedule === "zb-h1") assert.ok(ran.every((ops) => ops.filter((o) => o.op === "W").length === m), "a W per micro-batch");
      assert.equal(replaySchedules(ran).makespan, MAKESPAN[schedule](pp, m));
      const peaks = peakActivations(ran);
      for (const r of run.results) assert.equal(r.peakInFlight, peaks[r.coord.p], `stage ${r.coord.p}'s peak activations`);
      if (schedule === "zb-h1") assert.ok(peaks.every((k) => k <= pp), "ZB-H1 holds no more than 1F1B's P micro-batches");
      // The point-to-point messages of a step, from the trace: each micro-batch crosses the C − 1 chunk boundaries
      // forward and back, C = pp·v — interleaving's price, (2pp − 1)/(pp − 1) times 1F1B's for v = 2.
      const chunks = schedule === "interleaved" ? 2 : 1;
      assert.equal(bytesByKind(run.trace, config.steps - 1).send.count, 2 * (pp * chunks - 1) * m * dp * tp);
    });
  }
}

test("the schedules that cannot run say why, on the page (labLayout) and in every rank", async () => {
  const check = (fields, message) => assert.throws(() => labLayout(lab(fields)), message);
  check({ grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 4, schedule: "interleaved" },
    /interleaved 1F1B \(v = 2 chunks per stage\) needs pp·2 = 8 to divide the number of blocks L = 4/);
  check({ grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 1, schedule: "interleaved" },
    /interleaved 1F1B needs the micro-batches m = 1 to be a multiple of pp = 2/);
  check({ grid: { dp: 1, tp: 1, pp: 1 }, schedule: "interleaved" }, /interleaved 1F1B needs pp ≥ 2/);
  check({ grid: { dp: 1, tp: 1, pp: 2 }, schedule: "zb-h2" }, /unknown schedule "zb-h2"/);
  const config = lab({ grid: { dp: 1, tp: 1, pp: 2 }, microBatches: 1, schedule: "interleaved" });
  const run = await runLocal(labProgram(), { ranks: 2, inputs: [config, config], timeoutMs: 5000, core });
  assert.equal(run.status, "error");
  assert.match(run.error.message, /multiple of pp = 2/);
});

// The page sets the matching C++ strategy's memory accountant and communication log beside what the Workers
// measured (widgets/train_report.js). Every configuration it offers a strategy for must get both from the core: a
// failing core call is shown as an error on the page, and fails here.
test("every lab configuration with a matching C++ strategy gets its accountant and its log from the core", () => {
  let compared = 0;
  for (const [dp, tp, pp] of [[1, 1, 1], [2, 1, 1], [4, 1, 1], [1, 2, 1], [2, 2, 1], [1, 1, 2], [1, 1, 4]]) {
    for (const fsdp of [false, true]) {
      for (const [m, schedule] of [[1, "1f1b"], [2, "1f1b"], [4, "gpipe"]]) {
        const config = lab({ grid: { dp, tp, pp, ep: 1 }, fsdp, microBatches: m, schedule });
        const comparison = coreComparison(core, config);
        if (!comparison) continue;
        const where = `${comparison.strategy} on ${dp}×${tp}×${pp}, m = ${m}`;
        assert.equal(comparison.memory.error, undefined, `${where}: stepCost: ${comparison.memory.error}`);
        assert.equal(comparison.memory.value.length, dp * tp * pp, where);
        assert.equal(comparison.bytes.error, undefined, `${where}: trainCompare: ${comparison.bytes.error}`);
        compared++;
      }
    }
  }
  assert.ok(compared >= 8, `only ${compared} configurations compared`);
});
