// week5_code.test.mjs — Week 5's code exercises on the judge cluster with the real wasm core: the references the
// checkers compare with are the core's (the Megatron blocks' loss is trainSingle's first loss; the MoE reference's
// load, wanted, dropped, capacity and loss are core.expertParallel's, its bytes per rank the core's all-to-all
// size); for several learners (seeds) and attempts, the solution passes every run of a Check and every wrong
// program fails with the message that names its mistake; the page links each from the section that teaches it.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import exercises from "../../lessons/week5/exercises.js";
import { megatronBlock } from "../../lessons/week5/exercises/megatron_block.js";
import { moeDispatch } from "../../lessons/week5/exercises/moe_dispatch.js";
import { singleDeviceForward } from "../../lessons/week5/programs/megatron_program.js";
import { moeReference } from "../../lessons/week5/programs/moe_program.js";
import { judgePlan } from "../../web/exercise/judge_plan.js";
import { exerciseRng } from "../../web/exercise/random.js";
import { judgeEntry } from "./judge.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const LEARNERS = [11, 2024, 777];

test("Week 5's code exercises are each practised from the section that teaches them", () => {
  const page = readFileSync(new URL("../../lessons/week5/index.html", import.meta.url), "utf8");
  assert.match(page, /<section id="tensor" data-practise="[^"]*w5-megatron/);
  assert.match(page, /<section id="experts" data-practise="[^"]*w5-moe-dispatch/);
  assert.match(page, /<section id="interleaved" data-practise="[^"]*w5-interleaved-schedule/);
  assert.match(page, /<section id="zero-bubble" data-practise="[^"]*w5-zero-bubble/);
});

test("the Megatron checker's single device is trainSingle's: the same first loss", () => {
  for (const [seed, activation] of [[3, "gelu"], [40, "relu"], [512, "tanh"]]) {
    const model = { layers: 2, width: 6, hidden: 12, activation, residual: true }, rows = 5;
    const y = singleDeviceForward(core, { model, rows, seed });
    const { targets } = core.teacherBatch({ model, seed, batch: rows });
    const single = core.trainSingle({ model, optimizer: { kind: "sgd", lr: 0.01 }, batch: rows, steps: 1, seed });
    const loss = core.mseLoss(y, targets).loss;
    assert.ok(Math.abs(loss - single.losses[0]) <= 1e-13 * single.losses[0], `${loss} vs ${single.losses[0]}`);
  }
});

test("the MoE reference is core.expertParallel's layer: load, wanted, dropped, capacity, loss and bytes", () => {
  for (const [E, R, k, T, c, activation, seed] of [[4, 2, 1, 8, 1, "gelu", 3], [8, 4, 2, 6, 1.25, "relu", 11],
    [4, 4, 2, 5, 1, "tanh", 7], [8, 8, 1, 6, 1, "gelu", 90]]) {
    const moe = { width: 5, hidden: 8, experts: E, topK: k, capacityFactor: c, activation };
    const ref = moeReference(core, { moe, tokens: T, ranks: R, seed });
    const ep = core.expertParallel({ moe, ranks: R, batch: R * T, seed });
    assert.deepEqual(ref.load, ep.load);
    assert.deepEqual(ref.wanted, ep.wanted);
    assert.equal(ref.dropped, ep.dropped);
    assert.equal(ref.capacity, ep.capacity);
    assert.equal(ref.bytesPerRank, ep.allToAllBytesPerRank);
    const y = new Float64Array(R * T * 5);
    ref.ranks.forEach((r, i) => y.set(r.y, i * T * 5));
    const shape = { layers: 1, width: 5, hidden: 8, activation, residual: false };
    const loss = core.mseLoss(y, core.teacherBatch({ model: shape, seed, batch: R * T }).targets).loss;
    assert.ok(Math.abs(loss - ep.loss) <= 1e-13 * ep.loss, `${loss} vs ${ep.loss}`);
    assert.ok(ep.dropped > 0 || c > 1, "capacity factor 1 drops something in these batches");
  }
});

// A Check of one learner's attempt: every run's verdict, stopping at the first failure, as the page does.
async function check(exercise, code, learner, attempt) {
  for (const entry of judgePlan(exercise, exerciseRng(learner, exercise.id, attempt), attempt)) {
    const { verdict } = await judgeEntry(exercise, code, entry, core);
    if (!verdict.pass) return verdict;
  }
  return { pass: true, message: "" };
}

for (const e of [megatronBlock, moeDispatch]) {
  test(`${e.id}: the solution passes and every wrong fails with its message, for ${LEARNERS.length} learners`, async () => {
    for (const learner of LEARNERS) {
      for (const attempt of [1, 2]) {
        const ok = await check(e, e.solution, learner, attempt);
        assert.ok(ok.pass, `${e.id} learner ${learner} attempt ${attempt}: ${ok.message}`);
        for (const w of e.wrongs) {
          const v = await check(e, w.code, learner, attempt);
          assert.ok(!v.pass, `${e.id}: “${w.name}” passed (learner ${learner}, attempt ${attempt})`);
          assert.match(v.message, w.expect, `${e.id}: “${w.name}” (learner ${learner}, attempt ${attempt})`);
        }
      }
    }
  });
}

test("w5-megatron: the starter computes the right output but fails on its all-gathers", async () => {
  const v = await check(megatronBlock, megatronBlock.starter, LEARNERS[0], 1);
  assert.ok(!v.pass);
  assert.match(v.message, /^The outputs equal one device's, but in block 0 rank \d all-gathered/);
});

test("w5-moe-dispatch: the starter fails with a readable message, not a crash", async () => {
  const v = await check(moeDispatch, moeDispatch.starter, LEARNERS[0], 1);
  assert.ok(!v.pass);
  assert.match(v.message, /received\[0\] holds no buffer; every all-to-all buffer is \(E\/R\)·C·D/);
});
