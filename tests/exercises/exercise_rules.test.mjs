// exercise_rules.test.mjs — the rules every exercise of the course keeps, checked for every exercise that a page's
// exercises.js lists (found through web/lesson/course.js's WEEKS: ./course.mjs), so a new exercise is checked without
// touching a test. The rules and why they exist are written out for authors in lessons/AUTHORING.md; an exercise that
// cannot keep one says which and why in its `exempt` field ({ rule: "reason" }, the rules in course.mjs's EXEMPTIONS).
// The answers are computed by the real wasm core (build it first); each numeric answer is compared with the
// exercise's `oracle`, the same quantity computed without the core. Code exercises are judged as a whole (seeded
// interleavings, synchronous sends, hidden cases, every wrong program) in judging.test.mjs; here their data is checked.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { COURSE, EXEMPTIONS, EXERCISES, idPrefix, pageOf } from "./course.mjs";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { timeoutVerdict } from "../../web/cluster/local_verdicts.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { assertOwnWords, tagsBalanced } from "./own_words.mjs";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

const KINDS = ["numeric", "predict", "choice", "code"];
const LEARNERS = 40, NUMERIC_LEARNERS = 200;
const ORACLE_REL = 1e-12;   // the core and an oracle compute the same formula in doubles: only rounding differs

const practisedOn = (week) => new Set([...readFileSync(pageOf(week), "utf8").matchAll(/data-practise="([^"]+)"/g)]
  .flatMap((m) => m[1].split(/\s+/)));
const exempt = (e, rule) => Boolean(e.exempt?.[rule]);

test("every id is unique across the course and starts with its page's prefix", () => {
  assert.equal(new Set(EXERCISES.map((e) => e.id)).size, EXERCISES.length, "two exercises share an id");
  for (const { week, exercises } of COURSE) {
    for (const e of exercises) assert.ok(e.id.startsWith(idPrefix(week)), `${e.id}: ids on ${week.slug} start with ${idPrefix(week)}`);
  }
});

for (const { week, exercises } of COURSE) {
  const practised = practisedOn(week);
  for (const e of exercises) {
    test(`${e.id}: the fields every exercise has — kind, title, prompt, 2–4 hints, a solution text, a section that practises it`, () => {
      assert.ok(KINDS.includes(e.kind), `${e.id}: kind ${e.kind} is not one of ${KINDS.join(", ")}`);
      assert.ok(typeof e.title === "string" && e.title.length > 0, `${e.id}: no title`);
      assert.ok(typeof e.prompt === "string" || typeof e.prompt === "function", `${e.id}: prompt is HTML or (params) => HTML`);
      assert.ok(Array.isArray(e.hints) && e.hints.length >= 2 && e.hints.length <= 4 && e.hints.every((h) => typeof h === "string"),
        `${e.id}: 2–4 hints (text), revealed one at a time — the last may nearly give the method, never the number`);
      assert.equal(typeof e.solutionText, "string", `${e.id}: no solutionText`);
      assertOwnWords(e, 2);   // its own words: not the prompt or a hint again, whole paragraphs, every tag closed
      assert.ok(practised.has(e.id), `${e.id}: no section of lessons/${week.slug}/index.html has it in its data-practise="…"`);
      for (const [rule, reason] of Object.entries(e.exempt ?? {})) {
        assert.ok(rule in EXEMPTIONS, `${e.id}: exempt.${rule} is not a rule (${Object.keys(EXEMPTIONS).join(", ")})`);
        assert.ok(typeof reason === "string" && reason.length >= 20, `${e.id}: exempt.${rule} needs its reason, in a sentence`);
      }
    });

    if (e.kind === "numeric" || e.kind === "predict") numericRules(e);
    if (e.kind === "choice") choiceRules(e);
    if (e.kind === "code") codeRules(e);
  }
}

// Numeric and predict: the learner's parameters vary, the core's answer passes, the usual mistake fails for every
// draw, and an independent computation agrees with the core.
function numericRules(e) {
  test(`${e.id}: parameters vary; the answer equals its oracle and passes; wrongAnswer fails for every draw`, () => {
    assert.equal(typeof e.params, "function", `${e.id}: params(rng) draws the learner's parameters`);
    assert.equal(typeof e.wrongAnswer, "function", `${e.id}: wrongAnswer(params, core), the usual mistake, is required`);
    assert.ok(e.tolerance && (e.tolerance.rel > 0 || e.tolerance.abs > 0), `${e.id}: tolerance { rel } or { abs }`);
    assert.equal(typeof e.unitSymbol, "string", `${e.id}: unitSymbol (s, B, B/s, × or "") says what the box reads`);
    if (e.kind === "predict") assert.equal(typeof e.scenario, "function", `${e.id}: a predict exercise runs scenario(params, core)`);
    const drawn = new Map(Array.from({ length: NUMERIC_LEARNERS }, (_, s) => e.params(mulberry32(s + 1)))
      .map((p) => [JSON.stringify(p), p]));
    const least = exempt(e, "distinctParams") ? 2 : 11;
    assert.ok(drawn.size >= least, `${e.id}: ${drawn.size} distinct parameter sets among ${NUMERIC_LEARNERS} learners; ` +
      `more than 10 keep an answer from being passed around`);
    if (!exempt(e, "oracle")) assert.equal(typeof e.oracle, "function", `${e.id}: oracle(params) — the answer computed ` +
      "without the core (the published formula in plain JS) — checks that answer() asks the core the right question");
    for (const [key, p] of drawn) {
      const answer = e.answer(p, core);
      assert.ok(Number.isFinite(answer) && answer > 0, `${e.id} ${key}: answer ${answer}`);
      if (e.oracle) {
        const want = e.oracle(p);
        assert.ok(Math.abs(answer - want) <= ORACLE_REL * Math.abs(want), `${e.id} ${key}: the core gives ${answer}, the oracle ${want}`);
      }
      assert.ok(withinTolerance(answer, answer, e.tolerance));
      if (e.tolerance.rel) assert.ok(withinTolerance(answer * (1 + 0.5 * e.tolerance.rel), answer, e.tolerance));
      const wrong = e.wrongAnswer(p, core);
      assert.ok(!withinTolerance(wrong, answer, e.tolerance), `${e.id} ${key}: the wrong answer ${wrong} passes for ${answer}`);
      const prompt = typeof e.prompt === "function" ? e.prompt(p) : e.prompt;
      assert.match(prompt, /<p>/, `${e.id}: the prompt is HTML paragraphs`);
    }
  });
}

// Choice: every option explains itself; the marked answers are a real choice; a claim computed from the core agrees.
function choiceRules(e) {
  test(`${e.id}: every option explains itself, some are right and some wrong, every claim agrees with the core`, () => {
    assert.ok(Array.isArray(e.options) && e.options.length >= 2, `${e.id}: options: [{ text, correct, why }]`);
    for (const [i, o] of e.options.entries()) {
      assert.ok(typeof o.text === "string" && typeof o.correct === "boolean", `${e.id} option ${i}: text and correct`);
      assert.ok(typeof o.why === "string" && o.why.trim() !== "" && o.why.trim() !== o.text.trim(),
        `${e.id} option ${i}: why, shown once checked, says more than the option itself`);
      assert.ok(tagsBalanced(o.why), `${e.id} option ${i}: an unclosed or crossed tag in why`);
      if (o.claim) assert.equal(o.claim(core), o.correct, `${e.id} option ${i} (“${o.text}”): its claim computed by the core disagrees with correct`);
    }
    assert.equal(new Set(e.options.map((o) => o.why.trim())).size, e.options.length, `${e.id}: two options share one why`);
    const right = e.options.filter((o) => o.correct).length;
    assert.ok(right >= 1 && right < e.options.length, `${e.id}: ${right} of ${e.options.length} options are correct`);
  });
}

// Code: the visible cases fit a page (2–8 Workers, one input per rank) and vary per learner.
function codeRules(e) {
  test(`${e.id}: the judging data — starter, solution, checker, hidden cases; visible cases vary in p and inputs`, () => {
    for (const f of ["starter", "solution"]) assert.equal(typeof e[f], "string", `${e.id}: ${f} is the program's text`);
    for (const f of ["cases", "edgeCases", "check"]) assert.equal(typeof e[f], "function", `${e.id}: ${f} is required`);
    const cases = Array.from({ length: LEARNERS }, (_, i) => e.cases(mulberry32(1000 + 7919 * i))).flat();
    for (const c of cases) {
      assert.ok(Number.isInteger(c.ranks) && c.ranks >= 2 && c.ranks <= 8, `${e.id}: a visible case has p = ${c.ranks}; a page runs 2–8 Workers`);
      assert.ok(Array.isArray(c.inputs) && c.inputs.length === c.ranks, `${e.id}: inputs is one entry per rank`);
    }
    const ps = [...new Set(cases.map((c) => c.ranks))].sort((a, b) => a - b);
    if (e.visibleRanks) assert.deepEqual(ps, e.visibleRanks, `${e.id}: ${LEARNERS} learners' cases draw p in ${ps}, not visibleRanks`);
    if (!exempt(e, "variedRanks")) assert.ok(ps.length >= 2, `${e.id}: every visible case has p = ${ps[0]}; draw p per case`);
    const distinct = new Set(cases.map((c) => JSON.stringify([c.ranks, c.inputs]))).size;
    if (!exempt(e, "variedInputs")) {
      assert.ok(distinct > LEARNERS, `${e.id}: only ${distinct} distinct (p, inputs) among ${LEARNERS} learners' visible cases; ` +
        `draw the inputs per case so that no answer can be hard-coded`);
    }
    if (e.mustCover) assert.ok(Array.isArray(e.mustCover.ranks ?? []), `${e.id}: mustCover.ranks is a list of p`);
  });

  // A run that did not finish is explained, not judged: start check() with run_checks.js's unfinished(run).
  test(`${e.id}: the checker explains runs that did not finish (an error with its rank and line, a deadlock, a timeout)`, () => {
    const base = { elapsedMs: 1, results: [], logs: [], trace: [], spans: [], error: null, deadlock: null, timeout: null };
    const runs = [
      [{ ...base, status: "error", error: { rank: 2, message: "x is not defined", line: 4, column: 3 } }, /Rank 2.*line 4/],
      [{ ...base, status: "deadlock", deadlock: { cycle: [1, 2], message: "rank 1 waits for rank 2, rank 2 waits for rank 1" } }, /Deadlock: rank 1 waits/],
      // the watchdog's record as the clusters write it (local_verdicts.js, the same words as the Workers' cluster)
      [{ ...base, status: "timeout", ...timeoutVerdict({ running: [0, 3], blocked: [1], timeoutMs: 5000, lines: [{ rank: 1, line: 7 }] }) },
        /5000 ms.*ranks 0, 3.*Waiting.*line 7/],
    ];
    const testCase = e.cases(mulberry32(9))[0];
    for (const [run, pattern] of runs) {
      const v = e.check(run, testCase, null);
      assert.ok(!v.pass, `${e.id}: a ${run.status} run passed`);
      assert.match(v.message, pattern, `${e.id}: begin check() with \`const stop = unfinished(run); if (stop) return stop;\``);
    }
  });
}
