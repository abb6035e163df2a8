// step_equivalence.test.mjs — a step-through never changes what a program computes. For every code exercise of
// every week, its reference solution on one run of each kind a Check makes (attempt 1 of judgePlan: a seeded
// delivery order, synchronous sends, a hidden case) and each of its wrong programs on the first of those that fails
// it are judged three ways on the judge cluster: as Run runs them, instrumented with a stepper that lets every rank
// run free ("continue": the page's Step then Continue), and instrumented with a stepper that pauses before every
// statement and goes on at once. The RunResult (status, results, output, trace, error and its position) and the
// checker's verdict must be the same.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import { EXERCISES, sourceOf } from "./course.mjs";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { instrument } from "../../web/exercise/step_instrument.js";
import { describeVariables } from "../../web/worker/step_values.js";
import { judgePlan } from "../../web/exercise/judge_plan.js";
import { exerciseRng } from "../../web/exercise/random.js";
import { STEP_GLOBAL } from "../../web/worker/step_hooks.js";
import { LEARNER_SEED } from "./judge.mjs";
import { labInputs, labProgram, LAB_DEFAULTS } from "../../lessons/lab/programs/lab_program.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const exercises = EXERCISES.filter((e) => e.kind === "code");   // every page's, found through web/lesson/course.js

// Steppers as the Workers' (worker/step_hooks.js) behave once the page has chosen: never pause, or pause
// everywhere and go on at once (reading the variables each time, as a pause does).
const free = () => ({ at: () => false, pause: () => { throw new Error("never paused"); } });
function everywhere(sites) {
  const seen = { pauses: 0, unreadable: 0 };
  let site = -1, vars = null;
  return {
    seen,
    at(s, v) { site = s; vars = v; return true; },
    pause() {
      seen.pauses += 1;
      try { describeVariables(sites[site].names, vars()); } catch { seen.unreadable += 1; }
      return Promise.resolve();
    },
  };
}

// timeoutMs: a run that finished under Run may take much longer paused at every statement (the watchdog is real time).
async function judge(exercise, code, entry, stepper = null, timeoutMs = exercise.timeoutMs ?? 5000) {
  const { testCase, delivery, sendMode } = entry;
  const learnerLines = exercise.program ? code.split("\n").length : null;
  let program = exercise.program ? exercise.program(code) : code;
  let original = (line, column) => column;
  let hooks = null;
  if (stepper) {
    const stepped = instrument(program, { maxLine: learnerLines ?? Infinity });
    program = stepped.code;
    original = stepped.original;
    hooks = stepper(stepped.sites);
    globalThis[STEP_GLOBAL] = hooks;
  }
  const run = await runLocal(program, { ranks: testCase.ranks, inputs: testCase.inputs, core, delivery, sendMode,
    timeoutMs, learnerLines });
  delete globalThis[STEP_GLOBAL];
  if (run.error) run.error.column = original(run.error.line, run.error.column);
  return { run, verdict: exercise.check(run, testCase, core), seen: hooks?.seen };
}

const essentials = ({ status, results, logs, progress, trace, error, deadlock, stopped }) =>
  ({ status, results, logs, progress, trace, error, deadlock, stopped });

for (const e of exercises) {
  // The lab's, Week 3's and Week 6's runs train a model (or draw 200 quantizations): its seeded runs, the synchronous
  // one and the hidden ones, one of each.
  const full = judgePlan(e, exerciseRng(LEARNER_SEED, e.id, 1), 1);
  // Every kind of run a Check makes, once: a seeded delivery order, synchronous sends, a hidden case (judging.test.mjs
  // runs the whole plan; stepping it all again would only repeat the same kinds of run).
  const plan = [full.find((x) => x.delivery), full.find((x) => x.sendMode === "sync"), full.find((x) => x.hidden)]
    .filter(Boolean);
  const steppable = instrument(e.program ? e.program(e.solution) : e.solution,
    { maxLine: e.program ? e.solution.split("\n").length : Infinity }).sites.length > 0;
  const programs = [{ name: "the reference solution", code: e.solution }, ...e.wrongs];
  test(`${e.id}: Step then Continue, and stepping every statement, compute what Run computes`, async () => {
    let pauses = 0;
    for (const { name, code } of programs) {
      // The reference solution is stepped on every run of the plan; a wrong program on the run whose verdict
      // the learner sees (the first that fails it), which is where a stepper changing anything would mislead.
      // (A wrong program that only some delivery orders expose is stepped on the first run of the whole plan that
      // fails it, as a Check would show it.)
      const runs = [];
      for (const [i, entry] of (code === e.solution ? plan : full).entries()) {
        const plain = await judge(e, code, entry);
        if (code === e.solution || !plain.verdict.pass) runs.push({ i, entry, plain });
        if (code !== e.solution && !plain.verdict.pass) break;
      }
      assert.ok(runs.length > 0, `${e.id}, wrong program “${name}”: it passes every run of attempt 1's judge plan ` +
        `(${full.length} runs, web/exercise/judge_plan.js) — every wrong program must fail attempt 1, as a Check shows it ` +
        `(lessons/AUTHORING.md, "A code exercise"; tests/exercises/judging.test.mjs names the runs): make the wrong ` +
        `program's mistake show, or the checker catch it, in ${sourceOf(e)}`);
      for (const { i, entry, plain } of runs) {
        // What differs here is the program's, or the stepper's (web/exercise/step_instrument.js): a program that reads
        // the real clock (Date.now, performance.now) or Math.random computes something else when paused.
        const where = `${e.id}, ${name}, run ${i + 1} — stepping must not change what a program computes: it may not ` +
          `read the real clock or Math.random (lessons/AUTHORING.md, "A code exercise"; ${sourceOf(e)}) — mismatch in`;
        const slow = plain.run.status === "ok" ? 600000 : undefined;
        const cont = await judge(e, code, entry, free, slow);
        const every = await judge(e, code, entry, everywhere, slow);
        assert.deepEqual(essentials(cont.run), essentials(plain.run), `${where}: continue`);
        assert.deepEqual(cont.verdict, plain.verdict, `${where}: continue's verdict`);
        assert.equal(every.run.status, plain.run.status, `${where}: every statement's status (${JSON.stringify(every.run.timeout ?? every.run.error)})`);
        assert.deepEqual(essentials(every.run), essentials(plain.run), `${where}: every statement`);
        assert.deepEqual(every.verdict, plain.verdict, `${where}: every statement's verdict`);
        assert.equal(every.seen.unreadable, 0, `${where}: a pause could not read its variables`);
        pauses += every.seen.pauses;
      }
    }
    // The lab's 1F1B exercise has the learner write a plain (synchronous) schedule function: nothing to pause in.
    assert.equal(pauses > 0, steppable, `${e.id}: ${pauses} statements paused at, but the instrumented reference has ` +
      `${steppable ? "" : "no "}statements to pause at (web/exercise/step_instrument.js)`);
  });
}

// The lab's Step (lab/widgets/train_step.js) instruments the WHOLE rank program, not a learner's function: one
// training step on a dp × tp × pp grid, paused before every statement, must train exactly what Run trains.
test("the lab's whole rank program, one step paused at every statement, computes what Run computes", async () => {
  for (const grid of [{ dp: 2, tp: 2, pp: 2 }, { dp: 2, tp: 1, pp: 2 }]) {
    const config = { ...LAB_DEFAULTS, model: { ...LAB_DEFAULTS.model, layers: 2, width: 8, hidden: 16 }, batch: 8,
                     microBatches: 2, grid, steps: 1, fsdp: grid.tp === 1 };
    const ranks = grid.dp * grid.tp * grid.pp;
    const entry = { testCase: { ranks, inputs: labInputs(config) }, delivery: null, sendMode: "buffered" };
    const asRun = { program: null, timeoutMs: 60000, check: () => null };
    const plain = await judge(asRun, labProgram(), entry);
    const every = await judge(asRun, labProgram(), entry, everywhere);
    assert.equal(plain.run.status, "ok", JSON.stringify(plain.run.error));
    assert.equal(every.run.status, "ok", JSON.stringify(every.run.error ?? every.run.timeout));
    assert.deepEqual(essentials(every.run), essentials(plain.run), JSON.stringify(grid));
    assert.equal(every.seen.unreadable, 0);
    assert.ok(every.seen.pauses > 1000, `${every.seen.pauses} statements paused at on ${ranks} ranks`);
  }
});
