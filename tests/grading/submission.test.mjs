// submission.test.mjs — a submission (web/exercise/submission.js) is the progress export plus the student's name and
// the site's version: it reads back with everything the grader needs, imports as progress, and a file whose seed or
// shape is unusable is refused with a reason.
import test from "node:test";
import assert from "node:assert/strict";
import { Progress } from "../../web/storage/progress.js";
import { readSubmission, submissionFileName, submissionJSON } from "../../web/exercise/submission.js";

const SITE = { version: "0123456789abcdef", commit: "abc123def456" };

function progressWith(seed) {
  const p = new Progress(null);   // in memory
  p.data.seed = seed;
  p.update("w1-crossover", { answer: "62.5 kB", attempts: 2, solved: true });
  p.update("w1-token-ring", { code: "async function main(ctx) {}", attempts: 1 });
  return p;
}

test("a submission carries the export's seed, answers, code and attempts, the student's name and the site", () => {
  const text = submissionJSON(progressWith(777), "  Ada \n Lovelace ", SITE);
  const read = readSubmission(text);
  assert.equal(read.student, "Ada Lovelace");
  assert.deepEqual(read.site, SITE);
  assert.equal(read.seed, 777);
  assert.equal(read.exercises["w1-crossover"].answer, "62.5 kB");
  assert.equal(read.exercises["w1-crossover"].attempts, 2);
  assert.equal(read.exercises["w1-token-ring"].code, "async function main(ctx) {}");
  assert.deepEqual(read.dropped, []);
  const again = new Progress(null);
  assert.deepEqual(again.importJSON(text), { exercises: 2, solved: 1, dropped: [] }, "imports as any progress export");
});

test("the name is required and makes the file name", () => {
  assert.throws(() => submissionJSON(progressWith(5), "   ", SITE), /Type your name first/);
  assert.equal(submissionFileName("Émilie du Châtelet", new Date(2026, 11, 7)), "dsml-submission-emilie-du-chatelet-2026-12-07.json");
});

test("a plain progress export reads as a submission without a student; a bad seed or a non-progress file is refused", () => {
  const plain = readSubmission(progressWith(9).exportJSON());
  assert.equal(plain.student, null);
  assert.equal(plain.site, null);
  assert.equal(plain.seed, 9);
  const badSeed = JSON.stringify({ schema: 2, seed: "junk", student: "X", exercises: {} });
  assert.throws(() => readSubmission(badSeed), /seed must be a whole number.*cannot be drawn again/);
  assert.throws(() => readSubmission('{"hello": 1}'), /not a dsml progress file/);
  assert.throws(() => readSubmission("{"), /not valid JSON/);
});
