// week6_live_program.test.mjs — Week 6's live training program (lessons/week6/programs/), run on the judge cluster
// with the wasm core: a run restarted from a committed checkpoint ends bit for bit where the uninterrupted run
// does; the page's checkpoint store commits a step only when every shard has come; a world that drops workers
// mid-run equals the core's trainElastic and one device; top-k by all-gather sends exactly compressionWire's bytes.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { LIVE, LIVE_COMPRESSION, checkpointStore, compressedReference, compressionInput, elasticReference, finalParams,
         initialParams, liveInput, liveProgram, maxAbsDifference, singleDevice, traceBytesPerStep } from "../../lessons/week6/programs/live_program.js";
import { seededFailure } from "../../lessons/week6/programs/supervisor.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const SHORT = { ...LIVE, steps: 20, checkpointEvery: 5, stepDelayMs: 0 };
const everyone = (P) => Array.from({ length: P }, (_, r) => r);

async function train(P, fields, options = {}) {
  const run = await runLocal(liveProgram(), { ranks: P, inputs: new Array(P).fill(liveInput(P, fields)), core, timeoutMs: 60000, ...options });
  assert.equal(run.status, "ok", JSON.stringify(run.error ?? run.timeout));
  return run;
}

test("restarted from a committed checkpoint, a run ends exactly where the uninterrupted run does", async () => {
  const whole = await train(4, SHORT, { delivery: { seed: 3 } });
  const store = checkpointStore({ step: 0, params: initialParams(core, SHORT) });
  const values = whole.progress.flat().filter((v) => v.kind === "checkpoint" && v.step <= 10);
  for (const v of values) store.take(v);
  assert.equal(store.committed.step, 10);
  const resumed = await train(4, { ...SHORT, start: store.committed }, { delivery: { seed: 11 } });
  assert.equal(maxAbsDifference(finalParams(resumed), finalParams(whole)), 0);
  assert.ok(maxAbsDifference(finalParams(whole), singleDevice(core, SHORT).params) < 1e-12);
  assert.notEqual(maxAbsDifference(store.committed.params, finalParams(whole)), 0, "the checkpoint is not the end");
});

test("the checkpoint store commits a step only when all its shards have come, and never goes back", () => {
  const store = checkpointStore({ step: 0, params: new Float64Array(4) });
  const shard = (step, begin, end, x) => ({ kind: "checkpoint", step, shards: 2, begin, end, values: new Float64Array(end - begin).fill(x) });
  assert.equal(store.take(shard(5, 0, 2, 1)), false);
  assert.equal(store.committed.step, 0, "half a checkpoint is no checkpoint");
  assert.equal(store.take(shard(5, 2, 4, 2)), true);
  assert.deepEqual(Array.from(store.committed.params), [1, 1, 2, 2]);
  assert.equal(store.take(shard(5, 0, 2, 9)), false, "an old step is ignored");
  assert.equal(store.take({ kind: "step", step: 6 }), false);
  assert.equal(store.committed.step, 5);
});

test("8 Workers, 2 leave at step 10: equal to trainElastic's losses and one device's parameters", async () => {
  for (const gone of [[6, 7], [0, 5]]) {
    const survivors = everyone(8).filter((r) => !gone.includes(r));
    const run = await train(8, { ...SHORT, worlds: [{ step: 0, members: everyone(8) }, { step: 10, members: survivors }] });
    const ref = elasticReference(core, 8, 10, 6, SHORT);
    const losses = run.results[survivors[0]].losses;
    assert.equal(losses.length, SHORT.steps);
    assert.ok(Math.max(...ref.losses.map((l, i) => Math.abs(l - losses[i]))) < 1e-12);
    assert.ok(maxAbsDifference(finalParams(run), singleDevice(core, SHORT).params) < 1e-12);
    for (const r of gone) assert.equal(run.results[r].left, 10);
    for (const r of gone) assert.equal(run.trace.filter((m) => m.src === r).length, 10 * 2 * 7, "2(P − 1) sends a step, 10 steps");
    for (const r of survivors) assert.equal(run.trace.filter((m) => m.src === r).length, 10 * 2 * 7 + 10 * 2 * 5);
  }
});

test("top-k ± error feedback by all-gather: bytes per step from the trace are compressionWire's", async () => {
  for (const [workers, ratio] of [[4, 0.01], [4, 0.1], [3, 0.03]]) {
    const c = { ...LIVE_COMPRESSION, workers, batch: 4 * workers, ratio, steps: 12 };
    for (const [compressor, ef] of [["none", false], ["top-k", false], ["top-k", true]]) {
      const run = await runLocal(liveProgram(), { ranks: workers, inputs: new Array(workers).fill(compressionInput(compressor, ef, c)), core, timeoutMs: 60000 });
      assert.equal(run.status, "ok");
      const ref = compressedReference(core, compressor, ef, c);
      const what = `${compressor} P=${workers} k/n=${ratio}`;
      assert.ok(Math.abs(traceBytesPerStep(run, c.steps) - ref.bytesPerStep) < 1e-9, what);
      if (compressor !== "none") {  // every top-k message has the same size: every rank sends exactly the prediction
        for (let w = 0; w < workers; w++) assert.equal(traceBytesPerStep(run, c.steps, w), ref.bytesPerStep, what);
      }
      const losses = run.results[0].losses;
      assert.ok(Math.max(...ref.losses.map((l, i) => Math.abs(l - losses[i]) / l)) < 1e-5, "the loss follows the core's");
    }
  }
});

test("a seeded failure lands after the first checkpoint, never on a checkpoint step, on a real rank", () => {
  for (let seed = 0; seed < 200; seed++) {
    const { rank, step } = seededFailure(seed, 4, LIVE);
    assert.ok(rank >= 0 && rank < 4);
    assert.ok(step > LIVE.checkpointEvery && step < LIVE.steps && step % LIVE.checkpointEvery !== 0, `seed ${seed}: step ${step}`);
  }
});
