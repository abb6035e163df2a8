// file_rows.test.mjs — the gradebook's rows about files (scripts/grade.mjs, scripts/gradebook.mjs): one learner's file
// handed in twice (one seed in two files), a plain progress export (no student: named after its file) holding a record
// of an exercise the course does not have and a field that cannot be read. Expectations written out by hand.
import test from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { grade } from "../../scripts/grade.mjs";

const ADA = fileURLToPath(new URL("./submissions/ada.json", import.meta.url));

test("rows about files: a seed handed in twice, a plain export with an unknown record and an unreadable field", async () => {
  const dir = mkdtempSync(join(tmpdir(), "dsml-file-rows-"));
  try {
    copyFileSync(ADA, join(dir, "ada.json"));
    copyFileSync(ADA, join(dir, "ada-again.json"));
    writeFileSync(join(dir, "export.json"), JSON.stringify({ schema: 2, seed: 4242, exercises: {
      "w9-nonexistent": { answer: "1" },
      "w1-crossover": { answer: "1 kB", attempts: "many" },
    } }));
    const { rows } = await grade(dir, { only: ["w1-crossover"], jobs: 1 });
    const simple = rows.map((r) => [r.student, r.file, r.exercise, r.passed, r.attempts]);
    assert.deepEqual(simple, [
      ["Ada Lovelace", "ada-again.json", "w1-crossover", "yes", 2],
      ["Ada Lovelace", "ada-again.json", "(file)", "no", ""],
      ["Ada Lovelace", "ada.json", "w1-crossover", "yes", 2],
      ["Ada Lovelace", "ada.json", "(file)", "no", ""],
      ["export", "export.json", "(file)", "no", ""],
      ["export", "export.json", "w1-crossover", "no", 0],
    ]);
    assert.equal(rows[1].message, "The same seed (1234567) as ada.json: one learner's progress handed in more than once?");
    assert.equal(rows[3].message, "The same seed (1234567) as ada-again.json: one learner's progress handed in more than once?");
    assert.equal(rows[4].message, "The file names no student (a progress export, not a submission): named after the file; "
      + "fields that could not be read were left out: “w1-crossover” (attempts must be a whole number ≥ 0; its attempts "
      + "was reset); records of exercises this course does not have were ignored: w9-nonexistent.");
    assert.match(rows[5].message, /^Your answer is too small/);   // n* is at least 1 µs × 12.5 GB/s = 12 500 B for any seed
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
