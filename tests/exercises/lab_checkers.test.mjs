// lab_checkers.test.mjs — every lab exercise: the reference solution trains to the single-device parameters and
// passes on every case, the deliberately wrong version and the starter fail with a message that teaches, and
// the cases vary. The programs run on the local cluster with the real wasm core (the checks need trainSingle).
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/lab/exercises.js";
import { mulberry32 } from "../../lessons/web/exercise/random.js";
import { runLocal } from "./local_cluster.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const run = (e, code, testCase) => runLocal(e.program(code), { ...testCase, core, timeoutMs: 30000 });

const WRONG_MESSAGE = {
  "lab-dp-sync": /differ from single-device training/,
  "lab-fsdp-gather": /differ from single-device training|threw/,
  "lab-tp-fg": /partial outputs Y_t must be summed/,
  "lab-1f1b": /stage \d of \d held \d micro-batches .* 1F1B holds min\(m, P − s\)/,
};

test("the lab has the four exercises the issue asks for, all code run on Workers", () => {
  assert.deepEqual(exercises.map((e) => e.id), ["lab-dp-sync", "lab-fsdp-gather", "lab-tp-fg", "lab-1f1b"]);
  for (const e of exercises) {
    assert.equal(e.kind, "code");
    assert.equal(typeof e.program, "function");
    assert.ok(e.hints.length >= 3 && e.solutionText.length > 200, e.id);
  }
});

for (const e of exercises) {
  test(`${e.id}: the solution passes every case; the wrong version fails with a lesson`, async () => {
    assert.notEqual(e.wrong, e.solution);
    for (const seed of [1, 2, 3]) {
      let failures = 0;
      for (const testCase of e.cases(mulberry32(seed))) {
        const good = await run(e, e.solution, testCase);
        assert.equal(good.status, "ok", JSON.stringify(good.error));
        const verdict = e.check(good, testCase, core);
        assert.ok(verdict.pass, `${e.id} seed ${seed}: ${verdict.message}`);
        assert.match(verdict.message, /equal single-device training to [\d.]+e-\d+/);
        const bad = await run(e, e.wrong, testCase);
        const badVerdict = bad.status === "ok" ? e.check(bad, testCase, core) : { pass: false, message: "threw" };
        if (!badVerdict.pass) {
          failures += 1;
          assert.match(badVerdict.message, WRONG_MESSAGE[e.id]);
        }
      }
      assert.ok(failures > 0, `${e.id} seed ${seed}: the wrong version passed every case`);
    }
  });

  test(`${e.id}: the starter runs and fails the checker without crashing it`, async () => {
    const [testCase] = e.cases(mulberry32(5));
    const result = await run(e, e.starter, testCase);
    const verdict = e.check(result, testCase, core);
    assert.ok(!verdict.pass);
    assert.ok(verdict.message.length > 40, verdict.message);
  });

  test(`${e.id}: cases vary the grid, the seed or the sizes`, () => {
    const seen = new Set([1, 2, 3, 4, 5, 6, 7, 8].flatMap((s) => e.cases(mulberry32(s)).map((c) => JSON.stringify(c.config))));
    assert.ok(seen.size > 8, `${e.id}: only ${seen.size} distinct cases`);
    for (const c of e.cases(mulberry32(1))) assert.ok(c.ranks <= 8 && c.inputs.length === c.ranks);
  });
}

test("lab-dp-sync: a sum instead of a mean is named after one SGD step (and Adam nearly hides it)", async () => {
  const e = exercises[0];
  const [sgd, adam] = e.cases(mulberry32(4));
  const first = e.check(await run(e, e.wrong, sgd), sgd, core);
  assert.match(first.message, new RegExp(`moved ${sgd.config.grid.dp}(\\.0+)?× as far.*dp = ${sgd.config.grid.dp}×: the gradients were summed`));
  const second = e.check(await run(e, e.wrong, adam), adam, core);
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
