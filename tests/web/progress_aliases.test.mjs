// A renamed exercise keeps the learner's progress: a record saved under an old id (web/lesson/exercise_aliases.js) is
// read as the new id's, and when both ids have one, nothing is lost — solved if either was, first solved at the
// earlier time, attempts added, the most hints, the better record's code (the solved one, else the one with more
// attempts, else the new id's), the other's where the better has none (web/storage/progress_schema.js).
//   node --test tests/web/progress_aliases.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { Progress, STORAGE_KEY } from "../../web/storage/progress.js";
import { mergeRecords, readProgress } from "../../web/storage/progress_schema.js";
import { ALIASES } from "../../web/lesson/exercise_aliases.js";
import { MemoryStorage } from "./memory_storage.mjs";


const EMPTY = { code: null, starterHash: null, solved: false, solvedAt: null, attempts: 0, answer: null, hintsShown: 0, ownCode: null };
const rec = (over) => ({ ...EMPTY, ...over });
const store = (exercises) => JSON.stringify({ schema: 2, seed: 4242, exercises });
const ALIAS = { "w2-ring-old": "w2-ring-new" };

test("progress saved under an old id is read under the new id, and the old id is gone", () => {
  const old = rec({ code: "// my ring", starterHash: "abc", solved: true, solvedAt: "2026-10-01T09:00:00.000Z",
    attempts: 3, hintsShown: 2, answer: "4.5 ms" });
  const read = readProgress(store({ "w2-ring-old": old, "w1-other": rec({ attempts: 1 }) }), { aliases: ALIAS });
  assert.deepEqual(read.data.exercises["w2-ring-new"], { ...old, answer: null }, "all of it but the answer to other numbers");
  assert.equal("w2-ring-old" in read.data.exercises, false);
  assert.deepEqual(read.data.exercises["w1-other"], rec({ attempts: 1 }), "other records are untouched");
  assert.deepEqual(read.carried, [{ from: "w2-ring-old", to: "w2-ring-new", merged: false }]);
  assert.deepEqual(read.dropped, []);
});

test("an exercise renamed twice: both old ids lead to the newest, and all three records merge", () => {
  const aliases = { a: "b", b: "c" };   // a chain, followed to its end
  const read = readProgress(store({ a: rec({ attempts: 1 }), b: rec({ attempts: 2 }), c: rec({ attempts: 4 }) }), { aliases });
  assert.deepEqual(Object.keys(read.data.exercises), ["c"]);
  assert.equal(read.data.exercises.c.attempts, 7);
  assert.doesNotThrow(() => readProgress(store({ x: rec({}) }), { aliases: { x: "y", y: "x" } }), "a cycle ends");
});

test("both ids saved: the solved record is the better one, and nothing of either is lost", () => {
  // Old: solved on 1 Oct after 3 attempts with its code. New: 2 attempts, unsolved, other code, an answer, 1 hint.
  const old = rec({ code: "// solved", starterHash: "s1", solved: true, solvedAt: "2026-10-01T09:00:00.000Z", attempts: 3,
    hintsShown: 0, ownCode: "// set aside" });
  const cur = rec({ code: "// trying", starterHash: "s2", attempts: 2, hintsShown: 1, answer: "17" });
  const read = readProgress(store({ "w2-ring-new": cur, "w2-ring-old": old }), { aliases: ALIAS });
  assert.deepEqual(read.data.exercises["w2-ring-new"], {
    code: "// solved", starterHash: "s1",   // the better (solved) record's code, with the starter it was edited from
    ownCode: "// set aside",               // the better record's
    answer: "17",                          // the better one typed none (an old answer is never carried): the new id's
    solved: true, solvedAt: "2026-10-01T09:00:00.000Z",
    attempts: 5,                           // 3 + 2
    hintsShown: 1,                         // max(0, 1)
  });
  assert.deepEqual(read.carried, [{ from: "w2-ring-old", to: "w2-ring-new", merged: true }]);
});

test("merging: both solved keeps the first solve; neither solved keeps the record with more attempts; a tie the new id's", () => {
  const a = rec({ solved: true, solvedAt: "2026-11-05T00:00:00.000Z", attempts: 1, code: "A" });
  const b = rec({ solved: true, solvedAt: "2026-10-05T00:00:00.000Z", attempts: 4, code: "B" });
  const both = mergeRecords(a, b);
  assert.equal(both.solvedAt, "2026-10-05T00:00:00.000Z");
  assert.equal(both.code, "B", "4 attempts beat 1 when both are solved");
  assert.equal(both.attempts, 5);
  assert.equal(mergeRecords(rec({ attempts: 1, code: "cur" }), rec({ attempts: 6, code: "old" })).code, "old");
  assert.equal(mergeRecords(rec({ attempts: 2, code: "cur" }), rec({ attempts: 2, code: "old" })).code, "cur");
  assert.equal(mergeRecords(rec({ attempts: 2 }), rec({ attempts: 9, code: "old" })).solvedAt, null);
  // The better record without code takes the other's, with its starter.
  assert.deepEqual(pickCode(mergeRecords(rec({ solved: true, attempts: 1 }), rec({ attempts: 3, code: "mine", starterHash: "h" }))),
    { code: "mine", starterHash: "h" });
});
const pickCode = (r) => ({ code: r.code, starterHash: r.starterHash });

test("a page reads the old id's progress as the new id's, and saves it under the new id only", () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, store({ "w2-ring-old": rec({ solved: true, solvedAt: "2026-10-01T09:00:00.000Z", attempts: 2 }) }));
  Object.assign(ALIASES, ALIAS);   // the course's table, as the page reads it
  try {
    const progress = new Progress(storage);
    assert.equal(progress.get("w2-ring-new")?.solved, true);
    assert.equal(progress.get("w2-ring-old"), undefined);
    assert.equal(progress.solvedCount(["w2-ring-new"]), 1);
    assert.deepEqual(progress.notices, []);
    progress.update("w2-ring-new", { hintsShown: 1 });
    const saved = JSON.parse(storage.getItem(STORAGE_KEY)).exercises;
    assert.deepEqual(Object.keys(saved), ["w2-ring-new"]);
    assert.equal(saved["w2-ring-new"].attempts, 2);
    // An export from before the rename, imported later, is carried too.
    const imported = progress.importJSON(store({ "w2-ring-old": rec({ attempts: 7 }) }));
    assert.equal(imported.exercises, 1);
    assert.equal(progress.get("w2-ring-new").attempts, 7);
  } finally {
    for (const k of Object.keys(ALIAS)) delete ALIASES[k];
  }
});
