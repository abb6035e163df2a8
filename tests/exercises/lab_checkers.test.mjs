// lab_checkers.test.mjs — the lab exercises' checkers beyond what tests/exercises/judging.test.mjs proves for every
// code exercise (reference passes, every wrong program fails with its lesson): the cases vary, a scaled gradient is
// named, and 1F1B's time is replayed exactly. The programs run on the judge cluster with the real wasm core (the
// checks need trainSingle).
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/lab/exercises.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { unitReplay } from "../../lessons/lab/exercises/one_f_one_b.js";
import { coreLists } from "../../web/programs/pipe_lists.js";
import { assertOwnWords } from "./own_words.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const run = (e, code, testCase) => runLocal(e.program(code), { ...testCase, core, timeoutMs: 30000 });

test("every lab exercise is code run on Workers, composed into the lab's program, explained in its own words", () => {
  for (const e of exercises) {
    assert.equal(e.kind, "code");
    assert.equal(typeof e.program, "function");
    assertOwnWords(e, 3);
  }
});

for (const e of exercises) {
  test(`${e.id}: cases vary the grid, the seed or the sizes`, () => {
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].flatMap((s) => e.cases(mulberry32(s)).map((c) => JSON.stringify(c.config))));
    assert.ok(seen.size > 8, `${e.id}: only ${seen.size} distinct cases`);
    for (const c of e.cases(mulberry32(1))) assert.ok(c.ranks <= 8 && c.inputs.length === c.ranks);
  });
}

test("lab-dp-sync: a sum instead of a mean is named after one SGD step (and Adam nearly hides it)", async () => {
  const e = exercises[0];
  const [sgd, adam] = e.cases(mulberry32(4));
  const first = e.check(await run(e, e.wrongs[0].code, sgd), sgd, core);
  assert.match(first.message, new RegExp(`moved ${sgd.config.grid.dp}(\\.0+)?× as far.*dp = ${sgd.config.grid.dp}×: the gradients were summed`));
  const second = e.check(await run(e, e.wrongs[0].code, adam), adam, core);
  assert.ok(!second.pass, "Adam's update m/√v barely changes when g is scaled, but ε still shows it");
});

test("lab-dp-sync: one all-reduce per tensor trains correctly but is told to use one bucket", async () => {
  const e = exercises[0];
  const perTensor = `async function syncGradients(grads, dp) {
  for (const g of grads) {
    await dp.allReduce(g);
    for (let i = 0; i < g.length; i++) g[i] /= dp.size;
  }
}`;
  const [testCase] = e.cases(mulberry32(1));
  const verdict = e.check(await run(e, perTensor, testCase), testCase, core);
  assert.ok(!verdict.pass);
  assert.match(verdict.message, /Training matches, but rank 0 sent \d+ all-reduce messages in a step: that is 8 all-reduces/);
});

test("lab-tp-fg: adding the residual before the all-reduce is caught", async () => {
  const e = exercises[2];
  const early = e.solution.replace(/  await tp\.allReduce\(y\);[^\n]*\n(  if \(k\.residual\)[^\n]*\n)/, "$1  await tp.allReduce(y);\n");
  assert.notEqual(early, e.solution);
  const [testCase] = e.cases(mulberry32(2));
  const verdict = e.check(await run(e, early, testCase), testCase, core);
  assert.ok(!verdict.pass);
  assert.match(verdict.message, /The loss of step 0 is .* the forward pass already differs/);
});

test("lab-1f1b: a schedule that never fills the pipeline is caught", async () => {
  const e = exercises[3];
  const sequential = `function oneFOneB(stage, stages, m) {
  const ops = [];
  for (let mb = 0; mb < m; mb++) ops.push({ op: "F", mb }, { op: "B", mb });
  return ops;
}`;
  const [testCase] = e.cases(mulberry32(3));
  const verdict = e.check(await run(e, sequential, testCase), testCase, core);
  assert.ok(!verdict.pass);
  assert.match(verdict.message, /never fills/);
});

test("lab-1f1b: the reference solution is the core's 1F1B (the lab's default schedule), op for op", () => {
  const e = exercises.find((x) => x.id === "lab-1f1b");
  const oneFOneB = new Function(`${e.solution}\nreturn oneFOneB;`)();
  for (let P = 1; P <= 8; P++) {
    for (let m = 1; m <= 12; m++) {
      const core1f1b = coreLists(core, { schedule: "1f1b", devices: P, microBatches: m });
      for (let s = 0; s < P; s++) {
        assert.deepEqual(oneFOneB(s, P, m).map((o) => o.op + o.mb), core1f1b[s].map((o) => o.op + o.mb), `P = ${P}, m = ${m}, stage ${s}`);
      }
    }
  }
});

// With t_f = t_b = 1, 1F1B (and GPipe) finish in (m + P − 1)·2 (Narayanan et al. 2021); worked by hand for
// P = 2, m = 3 with the newest pending backward first: stage 0 runs F0 F1 B1 F2 B2 B0 and waits for stage 1's
// B1 (ready at t = 5) and B2 (t = 9): it ends at t = 11, not 8.
test("lab-1f1b: the unit-time replay gives (m + P − 1)·(t_f + t_b) for 1F1B and GPipe, and 11 for newest-first", () => {
  const ops = (schedule, P, m) => coreLists(core, { schedule, devices: P, microBatches: m }).map((l) => l.map((o) => o.op + o.mb));
  for (const P of [1, 2, 3, 4, 8]) {
    for (const m of [1, 2, 3, 5, 8, 12]) {
      assert.equal(unitReplay(ops("1f1b", P, m)).makespan, 2 * (m + P - 1), `1F1B P = ${P}, m = ${m}`);
      assert.equal(unitReplay(ops("gpipe", P, m)).makespan, 2 * (m + P - 1), `GPipe P = ${P}, m = ${m}`);
    }
  }
  const newestFirst = [["F0", "F1", "B1", "F2", "B2", "B0"], ["F0", "B0", "F1", "B1", "F2", "B2"]];
  const { makespan, timeline } = unitReplay(newestFirst);
  assert.equal(makespan, 11);
  assert.deepEqual(timeline[0].map((o) => o.start), [0, 1, 5, 6, 9, 10]);
  assert.equal(unitReplay([["F0", "B0", "F1", "B1"], ["F1", "B1", "F0", "B0"]]).makespan, Infinity, "an order that cannot finish");
});
