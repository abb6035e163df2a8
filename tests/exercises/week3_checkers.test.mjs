// week3_checkers.test.mjs — Week 3's trainer and exercises beyond what judging.test.mjs proves for every code
// exercise: the data-parallel trainer (the page's Workers run the same program) equals single-device training in
// every mode; its buckets are the core's; bucketed DDP launches communication during backward and flat DDP does not;
// the numeric answers match their hand-derived formulas. Runs on the judge cluster with the real wasm core.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/week3/exercises.js";
import { CALCS, accumulationShare } from "../../lessons/week3/calcs.js";
import { EXAMPLE, priceDdps } from "../../lessons/week3/ddp_setup.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { bucketRanges, dpConfig, dpInputs, dpProgram, replicaGap } from "../../lessons/week3/programs/dp_program.js";
import { maxRelativeDifference } from "../../web/exercise/compare_training.js";
import { allReducesOf } from "../../lessons/week3/exercises/dp_checks.js";
import { shardExperiment } from "../../lessons/week3/programs/shard_gradients.js";
import { assertOwnWords } from "./own_words.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const MODEL = { layers: 3, width: 8, hidden: 24, activation: "tanh", residual: true };
const train = (ranks, fields) => {
  const cfg = dpConfig({ model: MODEL, steps: 3, batch: 12 * ranks, ...fields });
  return runLocal(dpProgram(), { ranks, inputs: dpInputs(cfg, ranks), core, timeoutMs: 60000 }).then((run) => ({ run, cfg }));
};
const single = (cfg) => core.trainSingle({ model: cfg.model, optimizer: cfg.optimizer, batch: cfg.batch, steps: cfg.steps, seed: cfg.seed });

test("Week 3's trainer exercises (the code ones whose `program` composes the data-parallel trainer) explain in their own words and vary the configuration", () => {
  const trainer = exercises.filter((x) => x.kind === "code" && x.program);
  assert.ok(trainer.length >= 1);
  for (const e of trainer) {
    assertOwnWords(e, 3);
    const seen = new Set([1, 2, 3, 4, 5, 6].flatMap((s) => e.cases(mulberry32(s)).map((c) => JSON.stringify(c.config))));
    assert.ok(seen.size > 6, `${e.id}: only ${seen.size} distinct cases`);
  }
});

for (const [name, ranks, fields] of [
  ["naive DDP", 3, { sync: "naive" }], ["flat DDP", 4, { sync: "flat" }],
  ["bucketed DDP", 4, { sync: "bucketed", bucketBytes: 8 * 500, optimizer: { kind: "adam", lr: 0.01 } }],
  ["accumulation k = 3", 2, { accumulation: 3, batch: 36 }],
  ["unequal shards", 3, { shards: [2, 9, 5], batch: 16, optimizer: { kind: "momentum", lr: 0.05 } }],
]) {
  test(`the trainer on the Workers equals one device: ${name}`, async () => {
    const { run, cfg } = await train(ranks, fields);
    assert.equal(run.status, "ok", run.error?.message);
    assert.equal(replicaGap(run.results), 0);
    assert.ok(maxRelativeDifference(run.results[0].params, single(cfg).params) < 1e-12);
  });
}

test("the trainer's buckets are the core's: count and sizes against stepCost's dp-bucketed step", async () => {
  const psi = 2 * MODEL.layers * MODEL.width * MODEL.hidden;
  for (const bytes of [8 * 100, 8 * 333 + 5, 8 * psi, 8 * psi * 3]) {
    const priced = core.stepCost({ strategy: "dp-bucketed", grid: { dp: 4 }, model: MODEL, batch: 48, flops: 1e12, alpha: 1e-6,
      beta: 1e-9, elementBytes: 8, bucketBytes: bytes });
    const labels = new Set(priced.spans.filter((s) => s.stream === "comm").map((s) => s.label));
    assert.equal(bucketRanges(psi, bytes).length, labels.size, `bucket ${bytes} B`);
  }
  const { run, cfg } = await train(4, { sync: "bucketed", bucketBytes: 8 * 333 });
  assert.deepEqual(allReducesOf(run, cfg.steps - 1, 4).map((c) => c.values), bucketRanges(psi, 8 * 333).map((b) => b.end - b.begin));
});

test("bucketed DDP sends during backward; flat DDP only after it", async () => {
  const first = ({ run, cfg }) => ({ send: allReducesOf(run, cfg.steps - 1, 4)[0].firstSend, end: run.results[0].backwardEnd });
  const bucketed = first(await train(4, { sync: "bucketed", bucketBytes: 8 * 300 }));
  const flat = first(await train(4, { sync: "flat" }));
  assert.ok(bucketed.send < bucketed.end, JSON.stringify(bucketed));
  assert.ok(flat.send >= flat.end, JSON.stringify(flat));
});

test("w3-bucket-crossover: n = P·α/β by hand; Week 1's α/β is told wrong", () => {
  const e = exercises.find((x) => x.id === "w3-bucket-crossover");
  for (let s = 1; s <= 6; s++) {
    const p = e.params(mulberry32(s));
    const byHand = p.ranks * p.alphaUs * 1e-6 * p.bwGBs * 1e9;
    assert.ok(Math.abs(e.answer(p, core) / byHand - 1) < 1e-9);
    assert.ok(Math.abs(e.wrongAnswer(p, core) / byHand - 1) > e.tolerance.rel);
  }
});

test("the prose's numbers against hand derivations", () => {
  const C = (key) => CALCS[key](core);
  assert.equal(C("ex-crossover"), "4.8 MB");                       // 8 · 3 µs · 200 GB/s (the course's NVLink)
  const p = priceDdps(core);
  // Forward + backward = 3 × (2 · rows · Ψ) FLOP per GPU at 100 TFLOP/s.
  const psi = 2 * 12 * 2048 * 8192;
  assert.ok(Math.abs(p.naive.compute / (6 * 2048 * psi / 100e12) - 1) < 0.01);
  // Flat: one ring all-reduce of 4Ψ bytes on 8 ranks = 2·7·α + 2·(7/8)·4Ψ·β.
  const ring = 14 * 3e-6 + 2 * (7 / 8) * 4 * psi / 200e9;
  assert.ok(Math.abs(Object.values(p.flat.comm).reduce((a, b) => a + b, 0) / ring - 1) < 1e-9);
  assert.ok(p.bucketed.total >= p.bucketed.compute && p.bucketed.total < p.serial.total);
  // Accumulation: the same all-reduces, one per tensor (2L = 24 of them, each 2·7 latencies), shared by k× the compute.
  const perTensor = 24 * 14 * 3e-6 + 2 * (7 / 8) * 4 * psi / 200e9;
  const share = (k) => (perTensor / (k * p.flat.compute + perTensor));
  for (const k of [1, 8]) assert.ok(Math.abs(accumulationShare(core, k) - share(k)) < 1e-9, `k = ${k}`);
  assert.equal(EXAMPLE.grid.dp, 8);
});

test("shard gradients: the mean is exact for equal shards, the weighted mean for any", () => {
  const equal = shardExperiment(core, [20, 20, 20]);
  assert.ok(equal.mean.relative < 1e-14 && Math.abs(equal.sum.relative - 2) < 1e-12);
  const unequal = shardExperiment(core, [3, 17, 8, 4]);
  assert.ok(unequal.weighted.relative < 1e-14 && unequal.mean.relative > 1e-3);
});
