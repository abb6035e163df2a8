// The code exercises are built by web/exercise/code_exercise.js (the fields every code exercise shares,
// written once), and the checkers that explain a deadlock themselves say where each rank waits in the learner's code,
// as the shared verdict does (web/exercise/deadlock_verdict.js).
import test from "node:test";
import assert from "node:assert/strict";

import { codeExercise, trainerExercise } from "../../web/exercise/code_exercise.js";
import { EXERCISES } from "./course.mjs";

const code = { starter: "s", solution: "r", wrongs: [{ code: "w0" }, { code: "w1" }], cases: () => [], edgeCases: () => [], check: () => null };

test("codeExercise: kind code, the first wrong program as `wrong`, its own fields kept", () => {
  const ex = codeExercise({ id: "x", ranks: 3 }, code);
  assert.equal(ex.kind, "code");
  assert.equal(ex.wrong, "w0");
  assert.equal(ex.ranks, 3);
  assert.equal(ex.check, code.check);
});

test("codeExercise refuses an exercise without its programs or checker, naming what is missing", () => {
  assert.throws(() => codeExercise({ id: "x" }, { ...code, check: undefined }), /code exercise x: no check/);
  assert.throws(() => codeExercise({ id: "x" }, { ...code, wrongs: [] }), /code exercise x: wrongs/);
});

test("trainerExercise: one delivery order per case unless shuffled; the third attempt exempt, saying what trains", () => {
  const once = trainerExercise({ id: "t", trains: "a model" }, code);
  assert.deepEqual(once.judge, { interleavings: 1 });
  assert.deepEqual(once.exempt, { thirdAttempt: "every run trains a model" });
  assert.equal("trains" in once, false);
  const shuffled = trainerExercise({ id: "t", trains: "a model", shuffled: true }, code);
  assert.equal(shuffled.judge, undefined);
  assert.equal("shuffled" in shuffled, false);
});

test("every code exercise of the course has its wrong program as the first of its wrongs", () => {
  const codeExercises = EXERCISES.filter((e) => e.kind === "code");
  assert.ok(codeExercises.length >= 25, `${codeExercises.length} code exercises`);
  for (const e of codeExercises) assert.equal(e.wrong, e.wrongs[0].code, e.id);
});

// A deadlock as the cluster reports it, with the learner's lines the blocked ranks wait at.
const deadlock = (message) => ({ status: "deadlock", deadlock: { message, cycle: [0, 1], lines: [{ rank: 0, line: 7 }, { rank: 3, line: 12 }] },
  results: [], trace: [] });

// Week 4's checkers word a deadlock themselves: each such verdict names the lines the ranks wait at.
const byId = new Map(EXERCISES.map((e) => [e.id, e]));
for (const [id, run, testCase, why] of [
  ["w4-backup-round", deadlock("rank 0 waits for a message from any rank"), { config: { servers: 1, backup: 1 }, ranks: 5 }, /shard waited/],
  ["w4-ssp-gate", deadlock("rank 0 waits for rank 1, rank 1 waits for rank 0"), { config: { staleness: 1 }, ranks: 5 }, /never released/],
  ["w4-probe-stop", deadlock("rank 0 waits for rank 1, rank 1 waits for rank 0"), { target: 3, limit: 10 }, /waits until its message comes/],
]) {
  test(`${id}: the checker's own deadlock verdict names the lines the ranks wait at`, () => {
    const { message, pass } = byId.get(id).check(run, testCase, null);
    assert.equal(pass, false, id);
    assert.match(message, /^Deadlock: rank 0 waits .* \(rank 0 at line 7, rank 3 at line 12\)\. /, id);
    assert.match(message, why, id);
  });
}
