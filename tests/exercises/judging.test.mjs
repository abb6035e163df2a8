// judging.test.mjs — every code exercise of Weeks 1–6 and the lab, judged as the page's Check judges it
// (judgePlan → the judge cluster → the exercise's checker): the reference solution passes at least 20 runs under
// seeded delivery orders, the synchronous-send runs and the hidden cases; every wrong program in the exercise's
// `wrongs` fails on every attempt tried, with a message that names its mistake (its `expect`); the starter fails.
// The real wasm core is required (the lab trains with it; Week 2 replays traces with it): build it first.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import week1 from "../../lessons/week1/exercises.js";
import week2 from "../../lessons/week2/exercises.js";
import week3 from "../../lessons/week3/exercises.js";
import week4 from "../../lessons/week4/exercises.js";
import week5 from "../../lessons/week5/exercises.js";
import week6 from "../../lessons/week6/exercises.js";
import lab from "../../lessons/lab/exercises.js";
import { judgeAttempt, judgeEntry, plansFor } from "./judge.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const SEEDED_RUNS = 20;

// Sizes each exercise must reach in its hidden cases (the issue: rings up to p = 16, non-powers of two where
// the algorithm allows them).
const MUST_COVER = {
  "w1-token-ring": { ranks: [2, 16], odd: true },
  "w1-bsp-step": { ranks: [3, 16], odd: true },
  "w2-ring-allreduce": { ranks: [2, 16], odd: true, emptyChunks: true },
  "w2-allgather-rd": { ranks: [2, 16] },
  "w2-reduce-scatter-rh": { ranks: [2, 16] },
  "w6-elastic-ring": { ranks: [4, 16], odd: true },
};

const exercises = [...week1, ...week2, ...week3, ...week4, ...week5, ...week6, ...lab].filter((e) => e.kind === "code");

test("the code exercises under judgement", () => {
  assert.deepEqual(exercises.map((e) => e.id), ["w1-ping-pong", "w1-token-ring", "w1-bsp-step", "w2-ring-allreduce",
    "w2-allgather-rd", "w2-reduce-scatter-rh", "w3-bucketed-ddp", "w3-accumulate", "w3-weighted", "w3-lars-trust",
    "w4-key-ranges", "w4-stale-lr", "w4-ssp-gate", "w4-backup-round", "w4-probe-stop", "w5-megatron",
    "w5-interleaved-schedule", "w5-zero-bubble", "w5-moe-dispatch",
    "w6-checkpoint", "w6-elastic-ring", "w6-topk-ef", "w6-int8", "lab-dp-sync", "lab-fsdp-gather", "lab-tp-fg", "lab-1f1b"]);
});

for (const e of exercises) {
  const attempts = /^(lab|w3|w4|w6)-|^w5-(interleaved-schedule|zero-bubble)$/.test(e.id) ? [1, 2] : [1, 2, 3];   // these train a model (or draw 200 quantizations) per run

  test(`${e.id}: its judging data — several named wrong programs, each with the mistake it must be told`, () => {
    assert.ok(e.wrongs.length >= 4, `${e.id}: only ${e.wrongs.length} wrong programs`);
    assert.equal(e.wrong, e.wrongs[0].code, "`wrong` (the page test's) is the first of `wrongs`");
    assert.equal(new Set(e.wrongs.map((w) => w.name)).size, e.wrongs.length);
    for (const w of e.wrongs) {
      assert.ok(typeof w.name === "string" && w.name.length > 10 && w.expect instanceof RegExp, w.name);
      assert.ok(typeof w.code === "string" && w.code !== e.solution && w.code !== e.starter, `${w.name}: not a change`);
    }
    assert.equal(typeof e.edgeCases, "function", "hidden cases");
  });

  test(`${e.id}: the reference passes ≥ ${SEEDED_RUNS} seeded runs, the synchronous-send runs and the hidden cases`, async () => {
    let seeded = 0, sync = 0, hidden = 0;
    const ranks = new Set();
    for (const { attempt, plan } of plansFor(e, SEEDED_RUNS)) {
      for (const [i, entry] of plan.entries()) {
        const { run, verdict } = await judgeEntry(e, e.solution, entry, core);
        assert.ok(verdict.pass, `${e.id} attempt ${attempt} run ${i + 1} (${entry.sendMode}, p = ${entry.testCase.ranks}, ` +
          `seed ${entry.delivery?.seed}): ${run.status} — ${verdict.message}`);
        seeded += entry.delivery ? 1 : 0;
        sync += entry.sendMode === "sync" ? 1 : 0;
        hidden += entry.hidden ? 1 : 0;
        ranks.add(entry.testCase.ranks);
      }
    }
    assert.ok(seeded >= SEEDED_RUNS && sync >= 1 && hidden >= 2, `${seeded} seeded, ${sync} sync, ${hidden} hidden`);
    const cover = MUST_COVER[e.id];
    if (cover) {
      for (const p of cover.ranks) assert.ok(ranks.has(p), `${e.id}: no case with p = ${p} (${[...ranks]})`);
      if (cover.odd) assert.ok([...ranks].some((p) => p % 2 === 1), `${e.id}: no odd p`);
      if (cover.emptyChunks) {
        const cases = plansFor(e, SEEDED_RUNS).flatMap(({ plan }) => plan.map((x) => x.testCase));
        assert.ok(cases.some((c) => c.n < c.ranks), `${e.id}: no case with n < p`);
      }
    }
  });

  for (const w of e.wrongs) {
    test(`${e.id}: wrong program “${w.name}” fails, and the message names the mistake`, async () => {
      for (const attempt of attempts) {
        const result = await judgeAttempt(e, w.code, attempt, core);
        assert.ok(!result.pass, `${e.id}: “${w.name}” passed all ${result.entries} runs of attempt ${attempt}`);
        assert.match(result.message, w.expect, `${e.id} attempt ${attempt}, run ${result.entries} ` +
          `(${result.failed.sendMode}, p = ${result.failed.testCase.ranks}, ${result.run.status})`);
      }
    });
  }

  test(`${e.id}: the starter runs and fails the checker without crashing it`, async () => {
    const result = await judgeAttempt(e, e.starter, 1, core);
    assert.ok(!result.pass);
    assert.ok(result.message.length > 40, result.message);
  });
}
