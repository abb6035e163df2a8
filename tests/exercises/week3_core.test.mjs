// Week 3 sections 6–8, checked in Node against the real wasm core: the LARS trust-ratio code exercise judged as the
// page's Check judges it (≥ 20 seeded runs of the reference, the synchronous-send run, the hidden cases; every wrong
// program fails on every attempt with the message that names its mistake); the numeric answers against their
// published forms (the JAX scaling book's C/W, the ring all-reduce) with their wrongAnswer failing; every choice
// claim agreeing with its flag; and every number of the page's sections 6–8 equal to what calcs_large_batch.js computes.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { larsTrust } from "../../lessons/week3/exercises/lars_trust.js";
import { commBoundNumeric, scalingRule, strong64 } from "../../lessons/week3/exercises/scaling_numeric.js";
import { CALCS_LARGE_BATCH } from "../../lessons/week3/calcs_large_batch.js";
import { BASE, FINE_SWEEPS, bestRate } from "../../lessons/week3/large_batch_setup.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { judgeAttempt, judgeEntry, plansFor } from "./judge.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

test("w3-lars-trust: several named wrong programs, hidden cases", () => {
  assert.ok(larsTrust.wrongs.length >= 4);
  assert.equal(larsTrust.wrong, larsTrust.wrongs[0].code);
  for (const w of larsTrust.wrongs) assert.ok(w.expect instanceof RegExp && w.code !== larsTrust.solution, w.name);
});

test("w3-lars-trust: the reference passes ≥ 20 seeded runs, the synchronous-send runs and the hidden cases", async () => {
  let seeded = 0, sync = 0, hidden = 0;
  const ranks = new Set();
  for (const { attempt, plan } of plansFor(larsTrust, 20)) {
    for (const [i, entry] of plan.entries()) {
      const { run, verdict } = await judgeEntry(larsTrust, larsTrust.solution, entry, core);
      assert.ok(verdict.pass, `attempt ${attempt} run ${i + 1}: ${run.status} — ${verdict.message}`);
      seeded += entry.delivery ? 1 : 0;
      sync += entry.sendMode === "sync" ? 1 : 0;
      hidden += entry.hidden ? 1 : 0;
      ranks.add(entry.testCase.ranks);
    }
  }
  assert.ok(seeded >= 20 && sync >= 1 && hidden >= 2, `${seeded} seeded, ${sync} sync, ${hidden} hidden`);
  assert.ok(ranks.has(16) && [...ranks].some((p) => p % 2 === 1));
});

for (const w of larsTrust.wrongs) {
  test(`w3-lars-trust: wrong program “${w.name}” fails, and the message names the mistake`, async () => {
    for (const attempt of [1, 2, 3]) {
      const result = await judgeAttempt(larsTrust, w.code, attempt, core);
      assert.ok(!result.pass, `“${w.name}” passed all ${result.entries} runs of attempt ${attempt}`);
      assert.match(result.message, w.expect, `attempt ${attempt}`);
    }
  });
}

test("w3-lars-trust: the starter fails, told that it returned ρ = 1", async () => {
  const result = await judgeAttempt(larsTrust, larsTrust.starter, 1, core);
  assert.ok(!result.pass);
  assert.match(result.message, larsTrust.starterExpect);
});

// The checker on a case derived by hand: w = [3, 4], g = [0, 1] cut into two shards [3 | 4], [0 | 1], η = 0.5, β = 0.1.
//   whole tensor   ‖w‖ = 5, ‖g‖ = 1:          λ = 0.5·5/(1 + 0.5) = 5/3
//   rank 1 alone   ‖w‖ = 4, ‖g‖ = 1:          λ = 0.5·4/(1 + 0.4) = 10/7
//   summed norms   3 + 4 = 7, 0 + 1 = 1:      λ = 0.5·7/(1 + 0.7) = 35/17
//   no β·‖w‖       0.5·5/1 = 2.5;   no roots   0.5·25/(1 + 2.5) = 25/7
test("w3-lars-trust: the checker's ratio and its diagnoses on a hand-derived case", () => {
  const shard = (w, g) => ({ eta: 0.5, weightDecay: 0.1, tensors: [{ w: [w], g: [g] }] });
  const testCase = { ranks: 2, inputs: [shard(3, 0), shard(4, 1)], whole: [{ w: [3, 4], g: [0, 1] }], eta: 0.5, weightDecay: 0.1 };
  const trace = [{ src: 0, dst: 1, bytes: 16, sendTime: 0, recvTime: 1 }, { src: 1, dst: 0, bytes: 16, sendTime: 0, recvTime: 1 }];
  const run = (results) => ({ status: "ok", trace, results });
  const right = 5 / 3;
  assert.ok(larsTrust.check(run([[right], [right]]), testCase).pass);
  assert.match(larsTrust.check(run([[right], [10 / 7]]), testCase).message, /only its own shard/);
  assert.match(larsTrust.check(run([[35 / 17], [right]]), testCase).message, /summed the shards' norms/);
  assert.match(larsTrust.check(run([[2.5], [right]]), testCase).message, /λ·‖w‖/);
  assert.match(larsTrust.check(run([[25 / 7], [right]]), testCase).message, /square root/);
  assert.match(larsTrust.check({ ...run([[right], [right]]), trace: [{ ...trace[0], bytes: 80 }, trace[1]] }, testCase).message,
    /shards must stay where they are/);
});

const SEEDS = Array.from({ length: 12 }, (_, i) => 3000 + 7919 * i);

test("w3-comm-bound: the answer is (P−1)/P·(e/2)·C/W (the JAX scaling book's C/W for bf16); half of it fails", () => {
  for (const seed of SEEDS) {
    const p = commBoundNumeric.params(mulberry32(seed));
    const want = commBoundNumeric.answer(p, core);
    const [, C] = { a100: [0, 150e12], h100: [0, 400e12] }[p.device];
    const W = { nvlink: 200e9, nvlink4: 450e9, ib: 25e9, ib400: 50e9 }[p.link];
    assert.ok(Math.abs(want - ((p.ranks - 1) / p.ranks) * (C / W)) <= 1e-9 * want, JSON.stringify(p));
    assert.ok(withinTolerance(want, want, commBoundNumeric.tolerance));
    assert.ok(!withinTolerance(commBoundNumeric.wrongAnswer(p, core), want, commBoundNumeric.tolerance));
  }
});

test("w3-strong-64: the strong speed-up T₁/T₆₄ of the core's step model; weak scaling's fails", () => {
  for (const seed of SEEDS.slice(0, 6)) {
    const p = strong64.params(mulberry32(seed));
    const want = strong64.answer(p, core);
    assert.ok(want > 1 && want < 64, `${want}`);
    assert.ok(!withinTolerance(strong64.wrongAnswer(p, core), want, strong64.tolerance), JSON.stringify(p));
  }
});

test("w3-scaling-rule: every option's flag agrees with the run it claims; BASE is each optimizer's best at P = 1", () => {
  assert.ok(scalingRule.options.filter((o) => o.correct).length >= 2);
  for (const [i, o] of scalingRule.options.entries()) assert.equal(o.claim(core), o.correct, `option ${i}: ${o.text}`);
  for (const opt of Object.keys(FINE_SWEEPS)) assert.equal(bestRate(core, opt), BASE[opt], opt);
});

test("Week 3's sections 6–8: every data-calc number is what calcs_large_batch.js computes", () => {
  const page = readFileSync(new URL("../../lessons/week3/index.html", import.meta.url), "utf8");
  const html = page.slice(page.indexOf('<section id="large-batch"'), page.indexOf('<section id="exercises"'));
  const spans = [...html.matchAll(/<span data-calc="([^"]+)">([^<]*)<\/span>/g)];
  assert.ok(spans.length >= 40, `${spans.length} numbers`);
  for (const [, key, text] of spans) {
    assert.ok(key in CALCS_LARGE_BATCH, `no calc for ${key}`);
    assert.equal(text, CALCS_LARGE_BATCH[key](core), key);
  }
  const used = new Set(spans.map(([, key]) => key));
  for (const key of Object.keys(CALCS_LARGE_BATCH)) assert.ok(used.has(key), `calc ${key} is not in the prose`);
});
