// progress_export.test.mjs — "Export progress" then "Import progress" gives back what was exported: every record,
// solved state and answer included, and the seed that draws the learner's numbers, into a store that had lost them.
//   node --test tests/web/progress_export.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { Progress, STORAGE_KEY } from "../../web/storage/progress.js";
import { MemoryStorage } from "./memory_storage.mjs";

test("export → import round-trips every record and the seed, and the import is saved", () => {
  const storage = new MemoryStorage();
  const p = new Progress(storage);
  p.update("w1-crossover", { answer: "123", solved: true });
  p.update("w1-token-ring", { code: "// mine\n", attempts: 3 });
  const before = { seed: p.seed, crossover: p.get("w1-crossover"), ring: p.get("w1-token-ring") };
  const exported = p.exportJSON();
  p.reset("w1-crossover");
  p.reset("w1-token-ring");
  assert.equal(p.get("w1-crossover"), undefined);
  const result = p.importJSON(exported);
  assert.deepEqual({ exercises: result.exercises, solved: result.solved, dropped: result.dropped }, { exercises: 2, solved: 1, dropped: [] });
  assert.deepEqual({ seed: p.seed, crossover: p.get("w1-crossover"), ring: p.get("w1-token-ring") }, before);
  const reloaded = new Progress(storage);   // as the next page load reads it
  assert.equal(JSON.parse(storage.getItem(STORAGE_KEY)).seed, before.seed);
  assert.deepEqual(reloaded.get("w1-crossover"), before.crossover);
  assert.deepEqual(reloaded.get("w1-token-ring"), before.ring);
});
