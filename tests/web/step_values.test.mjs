// step_values.test.mjs — a rank's variables as the step-through shows them (web/worker/step_values.js):
// plain data only, short text, and for tensors their shape and L2 norm (what the lab's Step shows per rank).
//   node --test tests/web/step_values.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { describeVariables, preview } from "../../web/worker/step_values.js";

test("tensors get their shape and L2 norm; short lists, numbers and strings do not", () => {
  const [buf, grid, ranks, x, name] = describeVariables(["buf", "grid", "ranks", "x", "name"],
    [new Float64Array([3, 4]), [[1, 2, 2], [0, 0, 0]], [0, 1], 2.5, "tp"]);
  assert.deepEqual(buf, { name: "buf", value: "Float64Array(2) [3, 4]", shape: [2], norm: 5 });
  assert.deepEqual(grid.shape, [2, 3]);
  assert.equal(grid.norm, 3);
  assert.deepEqual(ranks, { name: "ranks", value: "[0, 1]" });
  assert.deepEqual(x, { name: "x", value: "2.5" });
  assert.deepEqual(name, { name: "name", value: "\"tp\"" });
  const long = describeVariables(["v"], [Array.from({ length: 12 }, () => 1)])[0];
  assert.equal(long.value, "[1, 1, 1, 1, 1, 1, 1, 1, … 4 more]");
  assert.deepEqual([long.shape, long.norm], [[12], Math.sqrt(12)]);
});

test("machinery is left out: functions, class instances, objects holding them", () => {
  class Core { f() {} }
  const out = describeVariables(["ctx", "core", "f", "plain"], [{ send() {} }, new Core(), () => 1, { a: 1, b: [2] }]);
  assert.deepEqual(out.map((e) => e.name), ["plain"]);
  assert.equal(out[0].value, "{ a: 1, b: [2] }");
  assert.equal(preview(new Float32Array(100)).length <= 60, true);
});
