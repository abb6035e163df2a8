// Saved progress is read field by field: one unreadable field of an exercise record is reset (and named), the
// record's other fields — its code — and every other record are kept, the text as it was saved is backed up first, and a backup can be listed, restored (the
// replaced progress itself backed up) or deleted.
//   node --test tests/web/progress_records.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { Progress, STORAGE_KEY } from "../../web/storage/progress.js";
import { BACKUP_PREFIX, backupKey, deleteBackup, listBackups } from "../../web/storage/progress_backups.js";
import { MemoryStorage } from "./memory_storage.mjs";


const good = (over = {}) => ({ code: "// mine", starterHash: "0badf00d", solved: true, solvedAt: "2026-11-01T10:00:00.000Z",
  attempts: 2, answer: null, hintsShown: 1, ...over });

function storeWith(exercises, seed = 4242) {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, JSON.stringify({ schema: 2, seed, exercises }));
  return storage;
}

const backupsIn = (storage) => storage.keys().filter((k) => k.startsWith(BACKUP_PREFIX));

// A seed that is not a seed is a bad record: backed up, replaced once by a new seed that is saved (so
// the exercises' numbers do not change on every load), answers typed for the old numbers cleared, solved kept.
for (const junk of ["junk", 0, 2.5, -3, 2 ** 31, null]) {
  test(`a stored seed of ${JSON.stringify(junk)} is replaced once, saved, backed up and reported`, () => {
    const storage = storeWith({ "w4-servers": good({ answer: "16" }) }, junk);
    const before = storage.getItem(STORAGE_KEY);
    const p = new Progress(storage);
    assert.ok(Number.isInteger(p.seed) && p.seed > 0 && p.seed < 2 ** 31, String(p.seed));
    assert.equal(p.notices.length, 1);
    assert.match(p.notices[0].text, /had no usable seed \(the seed must be a whole number from 1 to 2147483647, not /);
    const [key] = backupsIn(storage);
    assert.equal(storage.getItem(key), before);
    assert.ok(p.notices[0].text.includes(key));
    const saved = JSON.parse(storage.getItem(STORAGE_KEY));
    assert.equal(saved.seed, p.seed, "the new seed is saved");
    assert.equal(saved.exercises["w4-servers"].solved, true);
    assert.equal(saved.exercises["w4-servers"].answer, null);
    for (let i = 0; i < 2; i++) {
      const again = new Progress(storage);
      assert.equal(again.seed, p.seed, "the same seed on every later load");
      assert.equal(again.notices.length, 0);
    }
    assert.equal(backupsIn(storage).length, 1);
  });
}

for (const [bad, field, problem] of [[{ solved: "yes" }, "solved", /solved must be true or false/],
  [{ code: 123 }, "code", /code must be text/], [{ attempts: -1 }, "attempts", /attempts must be a whole number/],
  [{ attempts: "garbage" }, "attempts", /attempts must be a whole number/]]) {
  test(`a record with ${JSON.stringify(bad)} loses only that field, named; its other fields and every other record are kept`, () => {
    const storage = storeWith({ "w1-a": good(), "w1-bad": good(bad), "w2-b": good({ solved: false, solvedAt: null }) });
    const before = storage.getItem(STORAGE_KEY);
    const p = new Progress(storage);
    assert.equal(p.seed, 4242, "the seed (and so every exercise's parameters) is kept");
    assert.deepEqual(Object.keys(p.data.exercises).sort(), ["w1-a", "w1-bad", "w2-b"]);
    assert.equal(p.get("w1-a").code, "// mine");
    assert.equal(p.get("w1-a").solved, true);
    // The bad field is back to its empty value; the record's other fields are as saved.
    const kept = p.get("w1-bad");
    const empty = { code: null, solved: false, attempts: 0 }[field];
    assert.equal(kept[field], empty);
    for (const [k, v] of Object.entries(good())) {
      if (k !== field && !(field === "solved" && k === "solvedAt")) assert.deepEqual(kept[k], v, k);
    }
    assert.equal(p.notices.length, 1);
    const [notice] = p.notices;
    assert.equal(notice.level, "warn");
    assert.match(notice.text, new RegExp(`“w1-bad” \\(${problem.source}[^)]*; its ${field} was reset\\)`));
    assert.match(notice.text, /Everything else is kept, code included/);
    assert.doesNotMatch(notice.text, /w1-a|w2-b/, "only the bad record is named");
    // The text as saved is backed up, under the key the notice names; the store now holds every record.
    const [key] = backupsIn(storage);
    assert.equal(storage.getItem(key), before);
    assert.ok(notice.text.includes(key));
    assert.deepEqual(Object.keys(JSON.parse(storage.getItem(STORAGE_KEY)).exercises).sort(), ["w1-a", "w1-bad", "w2-b"]);
    // Reading again finds nothing wrong: no second backup, no notice.
    const again = new Progress(storage);
    assert.equal(again.notices.length, 0);
    assert.equal(backupsIn(storage).length, 1);
  });
}

test("a record that is not an object is removed whole, and named so", () => {
  const p = new Progress(storeWith({ "w1-a": good(), "w1-bad": "garbage" }));
  assert.deepEqual(Object.keys(p.data.exercises), ["w1-a"]);
  assert.match(p.notices[0].text, /“w1-bad” \(it is not an object; removed\)/);
});

test("a store that is not progress at all is still reset as a whole, after a backup", () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, "{not json");
  const p = new Progress(storage);
  assert.deepEqual(p.data.exercises, {});
  assert.match(p.notices[0].text, /could not be read; it was backed up as dsml\.progress\.backup-\S+ and reset/);
  assert.equal(storage.getItem(backupsIn(storage)[0]), "{not json");
});

test("a valid store is read without notice or backup", () => {
  const storage = storeWith({ "w1-a": good() });
  const p = new Progress(storage);
  assert.equal(p.notices.length, 0);
  assert.equal(backupsIn(storage).length, 0);
  assert.equal(p.get("w1-a").ownCode, null, "records gain the ownCode slot, empty");
});

test("import resets unreadable fields, keeps the rest of their records, and reports them", () => {
  const p = new Progress(new MemoryStorage());
  const result = p.importJSON(JSON.stringify({ schema: 2, seed: 7, exercises: { a: good(), b: good({ code: 123 }) } }));
  assert.equal(result.exercises, 2);
  assert.deepEqual(result.dropped, [{ id: "b", field: "code", problem: "code must be text or null" }]);
  assert.deepEqual(Object.keys(p.data.exercises), ["a", "b"]);
  assert.equal(p.get("b").solved, true);
  assert.equal(p.get("b").code, null);
});

test("backups are listed newest first with what they hold, restored, and deleted", () => {
  const storage = storeWith({ "w1-a": good(), "w1-bad": good({ solved: "yes" }) });
  const p = new Progress(storage);
  p.update("w2-new", { code: "// later work" });
  const [backup] = listBackups(storage);
  assert.match(backup.summary, /^2 exercise records, 1 solved; 1 unreadable field left out: “w1-bad” \(solved must be true or false; its solved was reset\)/);
  assert.equal(backup.restorable, true);
  assert.ok(backup.savedAt instanceof Date);

  const result = p.restoreBackup(backup.key);
  assert.deepEqual(Object.keys(p.data.exercises), ["w1-a", "w1-bad"], "the backup's records are back, with what of them can be read");
  assert.ok(result.savedAs, "what was replaced is itself backed up");
  assert.deepEqual(Object.keys(JSON.parse(storage.getItem(result.savedAs)).exercises).sort(), ["w1-a", "w1-bad", "w2-new"]);
  const list = listBackups(storage);
  assert.equal(list.length, 2);
  assert.equal(list[0].key, result.savedAs, "newest first");

  deleteBackup(storage, backup.key);
  assert.deepEqual(listBackups(storage).map((b) => b.key), [result.savedAs]);
  assert.throws(() => deleteBackup(storage, STORAGE_KEY), /not a dsml progress backup/);
});

test("a backup that cannot be read is listed as such and restoring it changes nothing", () => {
  const storage = new MemoryStorage();
  storage.setItem(STORAGE_KEY, '{"schema": 9, "exercises": {}}');
  const p = new Progress(storage);
  p.update("w1-a", { code: "// kept" });
  const [backup] = listBackups(storage);
  assert.equal(backup.restorable, false);
  assert.match(backup.summary, /newer version of dsml \(schema 9\)/);
  const before = storage.getItem(STORAGE_KEY);
  assert.throws(() => p.restoreBackup(backup.key), /cannot be restored by this page.*download it/);
  assert.equal(storage.getItem(STORAGE_KEY), before);
  assert.equal(listBackups(storage).length, 1);
});

test("backup keys are unique even within one millisecond", () => {
  const storage = new MemoryStorage();
  const now = new Date("2026-11-02T08:00:00.000Z");
  const first = backupKey(storage, now);
  storage.setItem(first, "x");
  const second = backupKey(storage, now);
  assert.notEqual(first, second);
  assert.equal(second, `${first}-2`);
});
