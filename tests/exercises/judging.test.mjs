// judging.test.mjs — every code exercise of every page (course.mjs), judged as the page's Check judges it
// (judgePlan → the judge cluster → the exercise's checker): the reference solution passes at least 20 runs under
// seeded delivery orders, the synchronous-send runs and the hidden cases; every wrong program in the exercise's
// `wrongs` fails on every attempt tried, with a message that names its mistake (its `expect`); the starter fails with
// the message its `starterExpect` gives.
// Each exercise carries what its judging needs (`mustCover`, `exempt.thirdAttempt`, `starterExpect`: web/README.md). The real wasm
// core is required (the lab trains with it; Week 2 replays traces with it): build it first.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { EXERCISES, sourceOf } from "./course.mjs";
import { judgeAttempt, judgeEntry, plansFor } from "./judge.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const SEEDED_RUNS = 20;
const plain = (html) => html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ").trim();

// Every code exercise of every page (course.mjs finds them through web/lesson/course.js): nothing here names one.
const exercises = EXERCISES.filter((e) => e.kind === "code");

for (const e of exercises) {
  // Attempts 1–3 for every wrong program, or 1–2 for an exercise whose runs are slow (it says why in exempt.thirdAttempt:
  // a model trained, or 200 quantizations drawn, per run).
  const attempts = e.exempt?.thirdAttempt ? [1, 2] : [1, 2, 3];

  test(`${e.id}: its judging data — several named wrong programs, each with the mistake it must be told`, () => {
    assert.ok(e.wrongs.length >= 4, `${e.id}: only ${e.wrongs.length} wrong programs; CI needs at least 4 plausible mistakes`);
    assert.equal(e.wrong, e.wrongs[0].code, "`wrong` (the page test's) is the first of `wrongs`");
    assert.equal(new Set(e.wrongs.map((w) => w.name)).size, e.wrongs.length);
    for (const w of e.wrongs) {
      assert.ok(typeof w.name === "string" && w.name.length > 10 && w.expect instanceof RegExp, w.name);
      assert.ok(typeof w.code === "string" && w.code !== e.solution && w.code !== e.starter, `${w.name}: not a change`);
    }
    assert.equal(typeof e.edgeCases, "function", "hidden cases");
    assert.ok(e.starterExpect instanceof RegExp, `${e.id}: starterExpect, what the starter's failure must be told`);
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
    const cover = e.mustCover;   // what the hidden cases must reach: { ranks: [p, …], odd, emptyChunks }
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
        assert.match(result.message, w.expect, `${e.id}: “${w.name}” was told “${plain(result.message)}”, which ` +
          `does not match its expect ${w.expect} (attempt ${attempt}, run ${result.entries}: ${result.failed.sendMode} ` +
          `sends, p = ${result.failed.testCase.ranks}, run status ${result.run.status}) — change the checker's message ` +
          `or the expect in ${sourceOf(e)}`);
      }
    });
  }

  // The starter does nothing yet (sends nothing, returns nothing, synchronises nothing): its `starterExpect` is the
  // message that follows, with the counts a hand count gives for the first case (say, 0 of 2(p − 1) = 4 messages).
  test(`${e.id}: the starter runs and fails the checker without crashing it, and is told what it left undone`, async () => {
    const result = await judgeAttempt(e, e.starter, 1, core);
    assert.ok(!result.pass);
    assert.match(result.message, e.starterExpect);
  });
}
