// Week 5 in Node against the real wasm core, beyond the rules every exercise keeps (exercise_rules.test.mjs): the
// numeric exercises' wrongAnswers equal the mistakes' hand formulas; every choice flag agrees with the
// pricer it claims; every number of the page's prose equals what calcs.js computes, and the key ones equal the papers'
// formulas worked by hand here.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { interleaveBubble, optimalMicroBatches } from "../../lessons/week5/exercises/pipeline_numeric.js";
import { layoutChoice } from "../../lessons/week5/exercises/scale_numeric.js";
import { compareSchedules } from "../../lessons/week5/pipeline_setup.js";
import { ANATOMY, TP_EXAMPLE, NVLINK, tpCollectives, zeroStates } from "../../lessons/week5/scale_setup.js";
import { mulberry32 } from "../../web/exercise/random.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const drawn = (ex, n = 40) => Array.from({ length: n }, (_, seed) => ex.params(mulberry32(seed + 1)));
const close = (a, b, rel = 1e-12) => Math.abs(a - b) <= rel * Math.abs(b);

test("w5-interleave: (P − 1)/(v·m) of the ideal; the wrong answer is the share of the step, (P − 1)/(v·m + P − 1)", () => {
  for (const p of drawn(interleaveBubble)) {
    assert.ok(close(interleaveBubble.answer(p, core), (p.P - 1) / (p.v * p.m)), JSON.stringify(p));
    assert.ok(close(interleaveBubble.wrongAnswer(p, core), (p.P - 1) / (p.v * p.m + p.P - 1)), JSON.stringify(p));
  }
});

test("w5-optimal-m: the best whole m of (m + P − 1)(T₁/P/m + o), searched by hand; the wrong one uses T₁", () => {
  const best = (P, t, o) => {
    let m = 1;
    for (let k = 2; k <= 4096; k++) if ((k + P - 1) * (t / k + o) < (m + P - 1) * (t / m + o)) m = k;
    return m;
  };
  for (const p of drawn(optimalMicroBatches, 20)) {
    const o = p.oMs * 1e-3;
    assert.equal(optimalMicroBatches.answer(p, core), best(p.P, p.T1 / p.P, o), JSON.stringify(p));
    assert.ok(Math.abs(optimalMicroBatches.answer(p, core) - Math.sqrt((p.P - 1) * (p.T1 / p.P) / o)) <= 1);
    assert.equal(optimalMicroBatches.wrongAnswer(p, core), best(p.P, p.T1, o), JSON.stringify(p));
  }
});

test("w5-layout: every option's flag agrees with the planner; three are true; no text quotes a planner number", () => {
  for (const [i, o] of layoutChoice.options.entries()) assert.equal(o.claim(core), o.correct, `option ${i}: ${o.text}`);
  assert.equal(layoutChoice.options.filter((o) => o.correct).length, 3);
  // The planner's numbers change with its model: the texts may name inputs (80 GB, 16 bytes, d = 8), never a time,
  // nor a ranking the page calls a shortlist ("X is the fastest").
  for (const text of layoutChoice.options.flatMap((o) => [o.text, o.why]).concat(layoutChoice.solutionText)) {
    assert.doesNotMatch(text, /\d\s*(s|ms)\b/, text);
    assert.doesNotMatch(text, /\) is the fastest/, text);
  }
});

test("ZeRO model states: 16Ψ, 4Ψ + 12Ψ/N, 2Ψ + 14Ψ/N, 16Ψ/N (Rajbhandari et al. §3.1), also the paper's 7.5B on 64", () => {
  const psi = 7.5e9, N = 64;
  const want = [16 * psi, 4 * psi + (12 * psi) / N, 2 * psi + (14 * psi) / N, (16 * psi) / N];
  want.forEach((w, stage) => assert.ok(close(zeroStates(core, psi, stage, N), w, 1e-12), `stage ${stage}`));
  assert.ok(Math.abs(zeroStates(core, psi, 1, N) - 31.4e9) < 0.05e9 && Math.abs(zeroStates(core, psi, 2, N) - 16.6e9) < 0.05e9);
});

test("the pipeline comparison equals the papers' formulas at P = 4, m = 8, v = 2 with unit times", () => {
  const r = compareSchedules(core);
  assert.equal(r["1f1b"].bubbleOverIdeal, 3 / 8);
  assert.ok(close(r["1f1b"].bubbleFraction, 3 / 11));
  assert.equal(r.interleaved.bubbleOverIdeal, 3 / 16);
  assert.equal(r["zb-h1"].bubbleOverIdeal, 3 / 24);
  assert.equal(r["1f1b"].messages, 2 * 8 * 3);
  assert.equal(r.interleaved.messages, 2 * 8 * (4 * 2 - 1));
  assert.deepEqual([r.gpipe.peakStageActivations, r["1f1b"].peakStageActivations], [8, 4]);
});

test("tensor parallelism: the ring all-reduce and all-gather equal their closed forms", () => {
  const { gather, reduce } = tpCollectives(core);
  const t = TP_EXAMPLE.t, { alpha, beta } = NVLINK;
  const nY = TP_EXAMPLE.tokens * TP_EXAMPLE.width * 2, nH = TP_EXAMPLE.tokens * TP_EXAMPLE.hidden * 2;
  assert.ok(close(reduce, 2 * (t - 1) * alpha + 2 * ((t - 1) / t) * nY * beta, 1e-9));
  assert.ok(close(gather, (t - 1) * alpha + ((t - 1) / t) * nH * beta, 1e-9));
});

test("recomputation: Korthikanti's sbh(34 + 5as/h), and 2sbh/t kept with full recomputation", () => {
  const { sequence: s, microBatch: b, hidden: h, heads: a } = ANATOMY;
  assert.ok(close(core.recomputationTradeoff(ANATOMY).keptBytes, s * b * h * (34 + (5 * a * s) / h)));
  const r = core.recomputationTradeoff({ ...ANATOMY, tensorParallel: 8, sequenceParallel: true });
  assert.ok(close(r.keptBytes, (s * b * h * (34 + (5 * a * s) / h)) / 8));
  assert.ok(close(r.recomputedBytes, (2 * s * b * h) / 8));
  assert.ok(close(r.computeFactor, 4 / 3));
});
