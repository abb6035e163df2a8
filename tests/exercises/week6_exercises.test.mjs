// week6_exercises.test.mjs — Week 6's exercises and prose numbers, checked in Node against the real wasm core, beyond
// the rules every exercise keeps (exercise_rules.test.mjs: each numeric answer equals its oracle — m/N, √(2δM), Daly
// 2006's τ*, top-k's all-gather (P − 1)·Σ 8k — for every parameter a learner can draw, and its wrongAnswer fails): the
// ring choice's flags agree with the core's composesWithAllReduce; the closed forms agree with the simulation and the
// compressed runs with compressed_training.h's measured table; every data-calc number in index.html equals calcs.js's.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { ringChoice } from "../../lessons/week6/exercises/ring_choice.js";
import { hoursOrYears } from "../../lessons/week6/calcs.js";
import * as K from "../../lessons/week6/checkpoint_setup.js";
import * as X from "../../lessons/week6/compression_setup.js";
import { elasticRun } from "../../lessons/week6/elastic_setup.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const HOUR = 3600;

test("Daly's τ* matches the values his paper states (δ = 5 min; M = 24 h, 6 h, 15 min → 117, 57, 9.1 min)", () => {
  const got = K.DALY_CASES.map((M) => core.checkpointIntervals(300, M).daly / 60);
  for (const [g, want] of got.map((g, i) => [g, [117, 57, 9.1][i]])) assert.ok(Math.abs(g - want) / want < 0.01, `${g} vs ${want}`);
});

// Every option's own explanation is exercise_rules.test.mjs's (choiceRules), for every choice exercise.
test("w6-ring: every option's flag is the core's composesWithAllReduce", () => {
  for (const o of ringChoice.options) {
    const w = core.compressionWire({ compressor: o.compressor, model: X.TRAIN.model, workers: 8 });
    assert.equal(o.correct, w.composesWithAllReduce, o.text);
    assert.equal(w.collectives.every((c) => c.collective === (o.correct ? "all-reduce" : "all-gather")), true, o.text);
  }
  assert.equal(ringChoice.options.filter((o) => o.correct).length, 2);
});

test("section 2: the simulation agrees with Daly's complete model within twice its 95% interval; the optimum is Daly's τ*", () => {
  const s = K.overheadStudy(core);
  for (const p of s.sims) {
    assert.ok(Math.abs(p.overhead - p.closed) <= 2 * p.ci, `τ = ${p.interval}: simulated ${p.overhead} ± ${p.ci} vs ${p.closed}`);
    assert.ok(Math.abs(p.firstOrder - (60 / p.interval + p.interval / (2 * 6 * HOUR))) < 1e-12);
  }
  // The minimum of the complete model is Daly's interval, and the simulation is lowest at τ* of the five points.
  assert.ok(Math.abs(s.optimal - s.daly) / s.daly < 0.01);
  assert.equal(s.sims.reduce((b, p, i) => (p.overhead < s.sims[b].overhead ? i : b), 0), 2);
  assert.ok(Math.abs(s.young - Math.sqrt(2 * 60 * 6 * HOUR)) < 1e-9);
});

test("section 2: without checkpoints the expected wall time is (M + D)·e^{R/M}·(e^{W/M} − 1), and the simulation agrees", () => {
  const p = K.progressCurves(core);
  const { mtbf: M, restart: R, detection: D } = K.CKPT;
  p.works.forEach((W, i) => assert.ok(Math.abs(p.none[i] - (M + D) * Math.exp(R / M) * (Math.exp(W / M) - 1)) < 1e-6 * p.none[i]));
  for (const s of p.simulated) {
    assert.ok(Math.abs(s.checkpointed - p.checkpointed[p.works.indexOf(s.work)]) <= 2 * s.checkpointedCi + 1, `checkpointed at ${s.work}`);
    assert.ok(s.checkpointed < s.none);
  }
});

test("section 3: the elastic run equals one device; a world that does not divide the batch is refused with the core's reason", () => {
  const r = elasticRun(core, { workers: 4, drop: 2 });
  assert.ok(r.maxRelativeDifference < 1e-12);
  assert.deepEqual(r.resizes.map((e) => [e.step, e.from, e.to]), [[10, 4, 2], [25, 2, 4]]);
  // Two joiners each receive the whole model: Ψ = 2·L·D·F = 1024 fp64 values.
  assert.equal(r.resizes[1].parameterBytesToJoiners, 2 * 2 * 2 * 8 * 32 * 8);
  const bad = elasticRun(core, { workers: 8, drop: 3 });
  assert.match(bad.error, /not divisible by 5 workers/);
});

test("section 4: the compressed runs reproduce compressed_training.h's measured table", () => {
  const final = (key, ef) => (key === "none" ? X.train(core, { compressor: "none" }) : X.train(core, X.COMPRESSORS[key].options, ef));
  const near = (got, want) => Math.abs(got - want) / want < 0.01;
  assert.ok(near(final("none").final, 0.0906));
  assert.ok(near(final("top-k-1", false).final, 0.291) && near(final("top-k-1", true).final, 0.0914));
  assert.ok(near(final("random-k-1", false).final, 1.76) && near(final("random-k-1", true).final, 0.295));
  assert.ok(near(final("powersgd-1", true).final, 0.0919));
  assert.equal(final("qsgd-4", true).diverged != null, true);
  // Bytes: top-k 1% of 4 tensors of 256 values: k = 3 each, 8 B, all-gathered over P = 4: 3·96 = 288 B.
  assert.equal(final("top-k-1", true).bytesPerStep, 3 * 4 * 3 * 8);
  // The dense ring all-reduce: 2·(P − 1)/P·4n = 1.5·4096.
  assert.equal(final("none").bytesPerStep, 1.5 * 4 * 1024);
});

test("section 4: on the wire, top-k 1% sends more than the dense all-reduce exactly from P ≥ n/k on", () => {
  const w = X.wire(core, { workers: [99, 100, 101, 102] });
  const topk = w.series.find((s) => s.key === "top-k-1").rows;
  // Per tensor: n = 1024·4096 values, k = round(0.01·n); 8 tensors.
  const n = 1024 * 4096, k = Math.round(0.01 * n);
  topk.forEach((r, i) => {
    assert.equal(r.bytes, (r.workers - 1) * 8 * k * 8);
    assert.equal(r.bytes >= w.none[i].bytes, r.workers >= n / k);
  });
});

test("a wall time without checkpoints reads in hours below a year and in years from there", () => {
  assert.equal(hoursOrYears(82.6 * 3600), "82.6 h");
  assert.equal(hoursOrYears(2.07 * 365 * 86400), "2.07 years");
});
