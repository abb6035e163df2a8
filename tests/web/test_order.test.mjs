// The page-test order (scripts/test_order.mjs): longest expected first, from the last run's seconds, and a file with
// no timing placed by its size at the measured seconds per byte. Expectations are hand counts over files of known size.
import test from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { longestFirst } from "../../scripts/test_order.mjs";

function files(sizes) {
  const dir = mkdtempSync(join(tmpdir(), "dsml-order-"));
  const paths = Object.entries(sizes).map(([name, bytes]) => {
    const path = join(dir, name);
    writeFileSync(path, "x".repeat(bytes));
    return path;
  });
  return { dir, paths };
}

test("files with a last-run time start longest first, whatever their size", () => {
  const { dir, paths } = files({ "a.test.mjs": 100, "b.test.mjs": 5000, "c.test.mjs": 10 });
  try {
    const order = longestFirst(paths, { "a.test.mjs": 40, "b.test.mjs": 12, "c.test.mjs": 90 });
    assert.deepEqual(order.map((p) => basename(p)), ["c.test.mjs", "a.test.mjs", "b.test.mjs"]);
  } finally { rmSync(dir, { recursive: true }); }
});

test("a file without a time is expected to take the measured seconds per byte of the others", () => {
  // Measured: a 1000 B file took 60 s and a 3000 B file 20 s: 80 s / 4000 B = 0.02 s a byte. The new 2000 B file is
  // expected to take 40 s: after the 60 s file, before the 20 s one.
  const { dir, paths } = files({ "a.test.mjs": 1000, "b.test.mjs": 3000, "new.test.mjs": 2000 });
  try {
    const order = longestFirst(paths, { "a.test.mjs": 60, "b.test.mjs": 20 });
    assert.deepEqual(order.map((p) => basename(p)), ["a.test.mjs", "new.test.mjs", "b.test.mjs"]);
  } finally { rmSync(dir, { recursive: true }); }
});

test("with no timings at all (a fresh clone) the largest files start first; ties go by name", () => {
  const { dir, paths } = files({ "b.test.mjs": 10, "a.test.mjs": 10, "z.test.mjs": 900 });
  try {
    assert.deepEqual(longestFirst(paths, {}).map((p) => basename(p)), ["z.test.mjs", "a.test.mjs", "b.test.mjs"]);
  } finally { rmSync(dir, { recursive: true }); }
});
