// grade.test.mjs — the lecturer's grader (scripts/grade.mjs) on a folder of four hand-made submissions
// (tests/grading/submissions/): Ada's right answers and code, Blaise's wrong ones (a unit slip, a wrong choice, a
// token ring that deadlocks, a loop that never ends), Carl's tampered file (it says every exercise was solved, and
// carries a "verdicts" field of its own, over wrong answers and code) and Dora's file that is not JSON. The expected
// gradebook is written out here by hand: the answers from the exercises' formulas for each learner's parameters
// (Ada, seed 1234567: α = 10 µs at 25 GB/s, n* = 10⁻⁵ s × 2.5·10¹⁰ B/s = 250 000 B; Blaise, seed 7654321: α = 10 µs
// at 12.5 GB/s, n* = 125 000 B, and he typed 125), the choices from the options' `correct` flags (1 and 2).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { EXERCISES } from "../exercises/course.mjs";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SUBMISSIONS = fileURLToPath(new URL("./submissions/", import.meta.url));

// RFC 4180: fields separated by commas, quoted when they hold a comma, a quote or a line break ("" is a quote).
function parseCSV(text) {
  const rows = [];
  let row = [], field = "", quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") { row.push(field); field = ""; }
    else if (c === "\r" && text[i + 1] === "\n") { row.push(field); rows.push(row); row = []; field = ""; i++; }
    else field += c;
  }
  return rows;
}

const dir = mkdtempSync(join(tmpdir(), "dsml-grade-"));
const out = join(dir, "gradebook.csv");
const stdout = execFileSync("node", [join(ROOT, "scripts/grade.mjs"), SUBMISSIONS, "--out", out, "--jobs", "2"],
  { encoding: "utf8" });
const [header, ...rows] = parseCSV(readFileSync(out, "utf8"));
rmSync(dir, { recursive: true, force: true });
const rowOf = (student, exercise) => {
  const found = rows.filter((r) => r[0] === student && r[2] === exercise);
  assert.equal(found.length, 1, `one row for ${student}, ${exercise}`);
  const [, file, , passed, attempts, message] = found[0];
  return { file, passed, attempts, message };
};
const CLAIM = /The file says this exercise was solved: the grader's judging of its (answer|code) did not pass\.$/;

test("the gradebook's columns, and one row per learner and exercise of the course plus one for the unreadable file", () => {
  assert.deepEqual(header, ["student", "file", "exercise", "passed", "attempts", "message"]);
  assert.equal(rows.length, 3 * EXERCISES.length + 1);
  for (const student of ["Ada Lovelace", "Blaise Pascal", "Carl Gauss"]) {
    assert.deepEqual(rows.filter((r) => r[0] === student).map((r) => r[2]), EXERCISES.map((e) => e.id), student);
  }
  assert.match(stdout, /^Ada Lovelace: 3 of \d+ passed$/m);
  assert.match(stdout, /^Carl Gauss: 0 of \d+ passed$/m);
});

test("the right answers and code pass, each with the checker's words", () => {
  assert.deepEqual(rowOf("Ada Lovelace", "w1-crossover"),
    { file: "ada.json", passed: "yes", attempts: "2", message: "250 kB matches the core's 250 kB." });
  assert.deepEqual(rowOf("Ada Lovelace", "w1-consensus"),
    { file: "ada.json", passed: "yes", attempts: "1", message: "Chose options 1, 2: exactly the correct options." });
  const ring = rowOf("Ada Lovelace", "w1-token-ring");
  assert.equal(ring.passed, "yes");
  assert.equal(ring.attempts, "3");
  assert.match(ring.message, /^All \d+ runs of the Check passed\.$/);
});

test("every exercise a learner left alone is a failed row that says so", () => {
  const untouched = rows.filter((r) => r[0] === "Ada Lovelace" && !["w1-crossover", "w1-consensus", "w1-token-ring"].includes(r[2]));
  assert.equal(untouched.length, EXERCISES.length - 3);
  for (const r of untouched) {
    assert.equal(r[3], "no");
    assert.equal(r[4], "0");
    assert.match(r[5], /^Not attempted: no (answer|code) saved\.$/);
  }
});

test("wrong answers fail with the page's diagnosis; a deadlock and an endless loop are failed rows with their message", () => {
  const n = rowOf("Blaise Pascal", "w1-crossover");
  assert.equal(n.passed, "no");
  assert.match(n.message, /^Your answer is too small: a unit prefix slip/);
  assert.equal(rowOf("Blaise Pascal", "w1-consensus").message,
    "Chose options 1, 3: not the correct set: at least one correct option is not chosen.");
  const ring = rowOf("Blaise Pascal", "w1-token-ring");
  assert.deepEqual([ring.passed, ring.attempts], ["no", "4"]);
  assert.match(ring.message, /^Case 1 of \d+ \(\d+ ranks, delivery order [0-9a-f]+\): Deadlock: rank 0 waits for rank \d+/);
  const loop = rowOf("Blaise Pascal", "w1-bsp-step");
  assert.equal(loop.passed, "no");
  assert.match(loop.message, /Stopped by the watchdog after 5000 ms/);
  for (const r of rows.filter((r) => r[0] === "Blaise Pascal")) assert.doesNotMatch(r[5], CLAIM, "Blaise claimed nothing");
});

test("a tampered file that claims passes is judged on its answers and code, and the claim is reported", () => {
  for (const [id, why] of [["w1-crossover", /^Your answer is too small, by more than a factor of 10/],
    ["w1-consensus", /^Chose option 3: not the correct set/], ["w1-token-ring", /central computation/]]) {
    const r = rowOf("Carl Gauss", id);
    assert.equal(r.passed, "no", id);
    assert.match(r.message, why, id);
    assert.match(r.message, CLAIM, id);
  }
});

test("an unreadable file is one row that says why, and grading goes on", () => {
  assert.deepEqual(rowOf("dora", "(file)"), { file: "dora.json", passed: "no", attempts: "",
    message: "Unreadable: the saved text is not valid JSON. Nothing in this file was graded; ask the learner to export "
      + "it again from the course page." });
});
