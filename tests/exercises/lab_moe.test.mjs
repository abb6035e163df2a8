// lab_moe.test.mjs — the lab's expert-parallel axis (dp × tp × pp × ep): every grid with MoE blocks trains to the
// single-device MoE stack's parameters (core.trainSingleMoe with the lab's dp·m token groups), routes the same
// load per expert, moves the all-to-all bytes the capacity buffers predict, and names what it cannot run.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import {
  LAB_DEFAULTS, assembleParams, bytesByKind, labInputs, labProgram,
  moeLoad, referenceRequest,
} from "../../lessons/lab/programs/lab_program.js";
import { lossesFromProgress, maxRelativeDifference } from "../../web/exercise/compare_training.js";
import { labLayout } from "../../lessons/lab/programs/lab_grid.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

const SMALL = { layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true };
const MOE = { experts: 4, topK: 1, capacityFactor: 1.25, every: 2 };
const lab = ({ moe, ...overrides }) => ({ ...LAB_DEFAULTS, model: SMALL, batch: 16, steps: 3, microBatches: 1,
  moe: { ...MOE, ...moe }, ...overrides });

async function train(config, program = labProgram()) {
  const ranks = config.grid.dp * config.grid.tp * config.grid.pp;
  return runLocal(program, { ranks, inputs: labInputs(config), timeoutMs: 30000, core });
}

function reference(config) {
  const { fn, request } = referenceRequest(config);
  assert.equal(fn, "trainSingleMoe");
  return core.trainSingleMoe(request);
}

// C slots per (rank's micro-batch, expert), as the core computes it.
const capacity = (config) => {
  const rows = config.batch / (config.grid.dp * config.microBatches), { experts, topK, capacityFactor } = config.moe;
  return Math.ceil((capacityFactor * topK * rows) / experts - 1e-12);
};

const SHAPES = [
  { grid: { dp: 2, tp: 1, pp: 1, ep: 2 } },
  { grid: { dp: 2, tp: 1, pp: 1, ep: 1 }, optimizer: { kind: "sgd", lr: 0.05 } },             // experts replicated
  { grid: { dp: 4, tp: 1, pp: 1, ep: 4 }, moe: { every: 1 } },                                 // every block MoE
  { grid: { dp: 4, tp: 1, pp: 2, ep: 2 }, microBatches: 2 },
  { grid: { dp: 2, tp: 2, pp: 2, ep: 2 }, microBatches: 2 },
  { grid: { dp: 2, tp: 1, pp: 1, ep: 2 }, moe: { topK: 2 } },
  { grid: { dp: 2, tp: 1, pp: 1, ep: 2 }, moe: { topK: 2, capacityFactor: 0.5 }, microBatches: 2 },   // drops
  { grid: { dp: 2, tp: 1, pp: 2, ep: 2 }, microBatches: 2, schedule: "interleaved" },
  { grid: { dp: 2, tp: 1, pp: 2, ep: 2 }, microBatches: 2, schedule: "zb-h1", moe: { capacityFactor: 0.75 } },
  { grid: { dp: 2, tp: 2, pp: 2, ep: 2 }, microBatches: 2, schedule: "zb-h1", moe: { topK: 2 } },
];

for (const shape of SHAPES) {
  const config = lab(shape);
  const { dp, tp, pp, ep } = config.grid, { experts, topK, capacityFactor, every } = config.moe;
  const name = `dp=${dp} tp=${tp} pp=${pp} ep=${ep} E=${experts} top-${topK} c=${capacityFactor} every=${every} ` +
    `m=${config.microBatches} ${config.schedule} ${config.optimizer.kind}`;
  test(`lab MoE ${name}: equals single-device training, load and all-to-all bytes`, async () => {
    const run = await train(config);
    assert.equal(run.status, "ok", run.error?.message);
    const { params, replicaGap } = assembleParams(run.results, config);
    const ref = reference(config);
    const gap = maxRelativeDifference(params, ref.params);
    assert.ok(gap < 1e-12, `params differ by ${gap}`);
    assert.ok(replicaGap < 1e-14, `replicas drifted apart by ${replicaGap}`);
    const losses = lossesFromProgress(run.progress, config.steps);
    losses.forEach((l, s) => assert.ok(Math.abs(l - ref.losses[s]) <= 1e-12 * ref.losses[s], `step ${s}: ${l} vs ${ref.losses[s]}`));
    assert.deepEqual(moeLoad(run.results, config), ref.load, "load per expert in the last step");
    if (capacityFactor < 1) assert.ok(ref.load.some((l) => l.dropped > 0), "this capacity drops assignments");

    // 4 all-to-alls per MoE block and micro-batch (dispatch, combine; their gradients), on every rank of the
    // block's stage: (ep − 1)·(E/ep)·C·D·8 bytes out of each.
    const bytes = bytesByKind(run.trace, config.steps - 1);
    const moeBlocks = config.model.layers / every;
    const perRank = (ep - 1) * (experts / ep) * capacity(config) * config.model.width * 8;
    const expected = 4 * config.microBatches * moeBlocks * dp * tp * perRank;
    if (ep === 1) assert.equal(bytes["all-to-all"], undefined, "ep = 1: no all-to-all");
    else assert.equal(bytes["all-to-all"].total, expected);
    // Expert gradients are all-reduced over the dp/ep ranks that hold the same expert, only when there are several.
    const byGroup = bytesByKind(run.trace, config.steps - 1, { byGroup: true });
    assert.equal(byGroup["all-reduce:expert-dp"] !== undefined, dp / ep > 1);
  });
}

test("an expert gradient not divided by ep, or a combine that forgets the gate, is a different training", async () => {
  const config = lab({ grid: { dp: 4, tp: 1, pp: 1, ep: 2 }, optimizer: { kind: "sgd", lr: 0.05 } });
  const ref = reference(config);
  for (const [right, wrong] of [["g[i] /= ep.size", "g[i] /= 1"], ["y[t * D + i] += g * o[at * D + i]", "y[t * D + i] += o[at * D + i]"]]) {
    const program = labProgram();
    assert.ok(program.includes(right), right);
    const run = await train(config, program.replace(right, wrong));
    assert.equal(run.status, "ok", run.error?.message);
    const gap = maxRelativeDifference(assembleParams(run.results, config).params, ref.params);
    assert.ok(gap > 1e-4, `${wrong}: params differ by only ${gap}`);
  }
});

test("without experts the lab is the dense lab: no all-to-all, trainSingle is the reference", async () => {
  const config = { ...LAB_DEFAULTS, model: SMALL, batch: 16, steps: 2, microBatches: 1, grid: { dp: 2, tp: 1, pp: 1 } };
  assert.equal(referenceRequest(config).fn, "trainSingle");
  const run = await train(config);
  assert.equal(run.status, "ok", run.error?.message);
  assert.equal(bytesByKind(run.trace, 1)["all-to-all"], undefined);
  assert.deepEqual(moeLoad(run.results, config), []);
});

test("configurations the expert-parallel axis cannot run say why, on the page and in every rank", async () => {
  const check = (fields, message) => assert.throws(() => labLayout(lab(fields)), message);
  check({ grid: { dp: 2, tp: 1, pp: 1, ep: 1 }, fsdp: true }, /FSDP with MoE blocks is not in the lab/);
  check({ grid: { dp: 4, tp: 1, pp: 1, ep: 3 } }, /ep = 3 must divide dp = 4: the expert-parallel ranks are a subset of each data-parallel group/);
  check({ grid: { dp: 4, tp: 1, pp: 1, ep: 4 }, moe: { experts: 6 } }, /ep = 4 must divide the number of experts E = 6/);
  check({ grid: { dp: 2, tp: 1, pp: 1, ep: 2 }, moe: { experts: 0 } }, /ep = 2 splits experts over ranks, but the model has none/);
  check({ grid: { dp: 2, tp: 1, pp: 1, ep: 1 }, moe: { topK: 3 } }, /top-k must be 1 or 2/);
  check({ grid: { dp: 2, tp: 1, pp: 1, ep: 1 }, moe: { every: 5 } }, /every 5-th block cannot be MoE in a model of L = 4 blocks/);
  const config = lab({ grid: { dp: 2, tp: 1, pp: 1, ep: 1 }, fsdp: true });
  const run = await runLocal(labProgram(), { ranks: 2, inputs: [config, config], timeoutMs: 5000, core });
  assert.equal(run.status, "error");
  assert.match(run.error.message, /FSDP with MoE blocks/);
  assert.throws(() => core.trainSingleMoe({ ...referenceRequest(lab({ grid: { dp: 2, tp: 1, pp: 1, ep: 2 } })).request, groups: 3 }),
    /trainSingleMoe: the batch B = 16 must be >= 1 and divisible by the 3 token groups/);
});
