// learner_statements.test.mjs — an exercise is solvable from its own page: what a prompt states about the harness is
// true of the harness, and what an answer needs is derived on the page. w4-ssp-gate's statements about ssp.clocks and
// ssp.held hold in every run a Check makes; w6-best-p's expected slowest of P is derived in the capstone section and
// equals the core's number; w2-busbw's prompt reads as English for every collective it draws.
//   node --test tests/exercises/learner_statements.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { judgeAttempt } from "./judge.mjs";
import { sspGate } from "../../lessons/week4/exercises/ssp_gate.js";
import { bestP } from "../../lessons/week6/exercises/time_to_target.js";
import { busBandwidth } from "../../lessons/week2/exercises/cost_formulas.js";
import { CALCS } from "../../lessons/week6/calcs.js";
import { formatSeconds } from "../../web/units.js";
import { mulberry32 } from "../../web/exercise/random.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const flat = (html) => html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");

test("w4-ssp-gate: the prompt says what ssp.clocks and ssp.held are when sspAfterPush runs", () => {
  const prompt = flat(sspGate.prompt);
  assert.match(prompt, /ssp\.clocks is an array with one entry per worker, indexed by worker number — the server shards have none/);
  assert.match(prompt, /the pushing worker is not in it when sspAfterPush is called/);
  assert.match(prompt, /take a worker out of ssp\.held when you release it/);
  assert.match(sspGate.starter, /The pushing worker is NOT in it when this is called/);
});

test("w4-ssp-gate: what the prompt states holds in every run of a Check (a reference that asserts it passes)", async () => {
  // The reference, asserting the prompt's statements on every call: clocks is an array with one number per worker
  // (indexed by worker, all ≥ 0), the pusher is a valid index and is not already held.
  const asserting = sspGate.solution.replace("{\n", `{
  if (!Array.isArray(ssp.clocks) || !ssp.clocks.every((c) => Number.isInteger(c) && c >= 0)) throw new Error("clocks is not one count per worker");
  if (!(Number.isInteger(worker) && worker >= 0 && worker < ssp.clocks.length)) throw new Error("worker " + worker + " is not an index of clocks");
  if (ssp.clocks[worker] !== clock) throw new Error("worker " + worker + "'s entry is not the clocks it had finished");
  if (!(ssp.held instanceof Set) || ssp.held.has(worker)) throw new Error("the pushing worker is already in ssp.held");
`);
  assert.notEqual(asserting, sspGate.solution);
  for (const attempt of [1, 2]) {
    const result = await judgeAttempt(sspGate, asserting, attempt, core);
    assert.ok(result.pass, `attempt ${attempt}: ${result.message}`);
  }
});

test("w6-best-p: the expected slowest of P is derived where the exercise sends the learner, and matches the core", () => {
  const page = readFileSync(new URL("../../lessons/week6/index.html", import.meta.url), "utf8");
  const i = page.indexOf('id="expected-slowest"');
  assert.ok(i > 0, "the capstone section has the derivation the prompt links to");
  const derivation = flat(page.slice(i, i + 2000));
  assert.match(derivation, /None is with probability \(1 - p\)\^P/);
  assert.match(derivation, /\\mathbb\{E\}\[\\max\] = t_\\text\{compute\}\\,\\big\(1 \+ \(\\kappa - 1\)\\,\(1 - \(1 - p\)\^P\)\\big\)/);
  assert.match(bestP.prompt(bestP.params(mulberry32(1))), /<a href="#expected-slowest">derived in the capstone section<\/a>/);
  // The page's numbers by hand: 400 ms, 4× slow with probability 0.02, P = 1, 8, 64.
  for (const P of [1, 8, 64]) {
    const byHand = 0.4 * (1 + 3 * (1 - 0.98 ** P));
    assert.equal(CALCS[`emax-${P}`](core), formatSeconds(byHand), `P = ${P}`);
  }
});

test("w2-busbw: the prompt's article agrees with the collective it draws", () => {
  for (const collective of ["all-reduce", "all-gather", "reduce-scatter"]) {
    const prompt = busBandwidth.prompt({ collective, ranks: 8, sizeMB: 100, seconds: 0.01 });
    assert.match(prompt, new RegExp(`reports that ${collective === "reduce-scatter" ? "a" : "an"} <strong>${collective}</strong>`));
  }
});

test("Week 6's capstone: the SSP run the page quotes reaches the (2s + 1)(P − 1) bound", () => {
  // s = 1, P = 3: (2·1 + 1)(3 − 1) = 6, by hand; the calc is the core's run of the CLI command the page prints.
  assert.equal(CALCS["ssp-round-tau-max"](core), String((2 * 1 + 1) * (3 - 1)));
});
