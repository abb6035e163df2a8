// week6_code.test.mjs — Week 6's four code exercises on the judge cluster (what the page's Check runs): the reference
// passes on fresh seeds, every wrong program fails with the message that names its mistake, and what each checker
// rests on is itself checked — the cases draw what the mistakes need (a failed rank in the middle, adjacent failures,
// two restores of one snapshot), the trainer on the Workers equals the reference trainer to the bit, top-k with error
// feedback satisfies the page's identity θ_T = θ_0 − (η/P)(Σ_t Σ_r g − Σ_r e_T), and the quantizer's unbiasedness
// bound is Hoeffding's.
import test from "node:test";
import assert from "node:assert/strict";

import { checkpointRestore } from "../../lessons/week6/exercises/checkpoint_restore.js";
import { elasticRing } from "../../lessons/week6/exercises/elastic_ring.js";
import { topkAllgather } from "../../lessons/week6/exercises/topk_allgather.js";
import { biasBound, quantizeInt8 } from "../../lessons/week6/exercises/quantize_int8.js";
import { checkpointProgram, referenceRun } from "../../lessons/week6/programs/checkpoint_program.js";
import { topkReference } from "../../lessons/week6/programs/topk_program.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { exerciseRng, mulberry32 } from "../../web/exercise/random.js";
import { judgeAttempt } from "./judge.mjs";

const EXERCISES = [elasticRing, checkpointRestore, topkAllgather, quantizeInt8];

// judging.test.mjs judges attempts 1 and 2; these are other seeds.
for (const e of EXERCISES) {
  test(`${e.id}: the reference passes attempts 3–5 (fresh cases, delivery orders and hidden cases)`, async () => {
    for (const attempt of [3, 4, 5]) {
      const r = await judgeAttempt(e, e.solution, attempt);
      assert.ok(r.pass, `attempt ${attempt}, run ${r.entries}: ${r.message}`);
    }
  });
  for (const w of e.wrongs) {
    test(`${e.id}: “${w.name}” fails on attempts 3 and 4 with its message`, async () => {
      for (const attempt of [3, 4]) {
        const r = await judgeAttempt(e, w.code, attempt);
        assert.ok(!r.pass, `passed attempt ${attempt}`);
        assert.match(r.message, w.expect, `attempt ${attempt}`);
      }
    });
  }
}

const drawnCases = (e, seeds = 50) => Array.from({ length: seeds }, (_, s) => {
  const rng = exerciseRng(7, e.id, s);
  return { visible: e.cases(rng), hidden: e.edgeCases(rng) };
});

test("w6-elastic-ring: every Check has adjacent failures and a failed rank before a survivor; n never divides by P − 2", () => {
  for (const { visible, hidden } of drawnCases(elasticRing)) {
    const all = [...visible, ...hidden];
    assert.ok(visible.some((c) => c.failed[1] - c.failed[0] === 1), "no adjacent failures among the visible cases");
    for (const c of all) {
      assert.ok(c.failed[0] < c.ranks - 2 && c.failAt >= 1 && c.failAt < c.steps, JSON.stringify(c.failed));
      if (c.ranks > 4) assert.ok(c.n % (c.ranks - 2) !== 0, `n = ${c.n}, P = ${c.ranks}`);
    }
  }
});

test("w6-elastic-ring: a failing rank that loops before its failure is named with its line, not as a message to a failed rank", async () => {
  // The loop never ends, so the watchdog decides: a short one keeps the test quick (the page's is the exercise's).
  const loop = elasticRing.solution.replace("  for (let t = 0; t < steps.length; t++) {",
    '  if (failed.includes(ctx.rank)) while (!(await ctx.probe({ tag: "fail" }))) {}   // waits to be told\n  for (let t = 0; t < steps.length; t++) {');
  const r = await judgeAttempt({ ...elasticRing, timeoutMs: 1500 }, loop, 1);
  assert.ok(!r.pass);
  assert.match(r.message, /^Stopped by the watchdog .*ranks (\d+), (\d+) were still running \(ranks \1 and \2 at line 7\)/);
  assert.doesNotMatch(r.message, /which failed/);
});

test("w6-checkpoint: two restores of one snapshot in every case; the Workers' trainer equals the reference to the bit", async () => {
  for (const { visible } of drawnCases(checkpointRestore)) {
    for (const { cfg } of visible) {
      const [a, b, c] = cfg.failures.map((k) => Math.floor(k / cfg.every) * cfg.every);
      assert.ok(a === b && c > b && cfg.failures.every((k) => k % cfg.every !== 0) && cfg.failures.at(-1) < cfg.steps);
    }
  }
  const { cfg, ranks, inputs } = checkpointRestore.cases(mulberry32(11))[1];
  const calm = inputs.map((x) => ({ ...x, failures: [] }));
  const run = await runLocal(checkpointProgram(checkpointRestore.solution), { ranks, inputs: calm, delivery: { seed: 5 } });
  assert.equal(run.status, "ok");
  const ref = referenceRun(cfg, ranks);
  for (const r of run.results) assert.deepEqual(r.params, ref.params);
  assert.ok(ref.params.some((x) => Math.abs(x) > 0.05), "training moved the parameters");
  // Adam's moments, the step, the cursor and the generator all change from one checkpoint to the next, so forgetting
  // any of them is visible.
  const [s0, s1] = [ref.after[cfg.every][0], ref.after[2 * cfg.every][0]];
  for (const key of ["m", "v", "step", "cursor", "rng"]) assert.notDeepEqual(s0[key], s1[key], key);
});

test("w6-topk-ef: the reference keeps the error-feedback identity θ_T = θ_0 − (η/P)(Σ_t Σ_r g_t,r − Σ_r e_T,r)", () => {
  for (const seed of [1, 2, 3]) {
    const { cfg, ranks } = topkAllgather.cases(mulberry32(seed))[1];
    const ref = topkReference(cfg, ranks);
    for (let j = 0; j < cfg.features; j++) {
      let gSum = 0, eSum = 0;
      for (let r = 0; r < ranks; r++) {
        for (const { g } of ref.before[r]) gSum += g[j];
        eSum += ref.residuals[r].at(-1)[j];
      }
      const want = -(cfg.lr / ranks) * (gSum - eSum);
      assert.ok(Math.abs(ref.params[j] - want) < 1e-9 * Math.max(1, Math.abs(want)), `θ_${j}: ${ref.params[j]} vs ${want}`);
    }
    assert.ok(ref.residuals.flat().some((e) => e.some((x) => x !== 0)), "the residual is used");
  }
});

test("w6-int8: the unbiasedness bound is Hoeffding's, and the reference stays inside it over 200 vectors of 200 draws", () => {
  // Hoeffding: P(|mean − E| ≥ ε) ≤ 2·exp(−2Rε²/s²); with ε = biasBound and n values, n·2·exp(…) = 10⁻⁹.
  const s = 0.01, R = 200, n = 32, eps = biasBound(s, R, n);
  assert.ok(Math.abs(n * 2 * Math.exp(-2 * R * eps * eps / (s * s)) - 1e-9) < 1e-15);
  // The reference quantizer: over 200 vectors × 200 draws the largest |bias| in levels stays well inside the bound.
  const { encode, decode } = new Function(`${quantizeInt8.solution}; return { encode, decode };`)();
  const rand = mulberry32(3);
  let worst = 0;
  for (let v = 0; v < 200; v++) {
    const x = Float64Array.from({ length: n }, () => rand() * 4 - 2);
    const lo = Math.min(...x), step = (Math.max(...x) - lo) / 255, sum = new Float64Array(n);
    for (let d = 0; d < R; d++) {
      const { codes, header } = encode(x, rand);
      decode(codes, header).forEach((y, j) => { sum[j] += y; });
    }
    x.forEach((xj, j) => { worst = Math.max(worst, Math.abs(sum[j] / R - xj) / step); });
  }
  assert.ok(worst < biasBound(1, R, n), `worst bias ${worst} levels, bound ${biasBound(1, R, n)}`);
});
