// latestDraw (web/lesson/core_tasks.js): a widget's drawing computed off the main thread, written once — the working
// text meanwhile, the answer or null (replaced by a newer draw, or failed: then said in the readout), and the run
// time the page tests read (figure.dataset.runMs) recorded only for an answer.
//   node --test tests/web/latest_draw.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { latestDraw } from "../../web/lesson/core_tasks.js";

const fakeTasks = (outcome) => ({ calls: [], latest(key, name, ...args) {
  this.calls.push([key, name, ...args]);
  return outcome instanceof Error ? Promise.reject(outcome) : Promise.resolve(outcome);
} });

test("an answer: returned, the working text shown meanwhile, its run time recorded", async () => {
  const tasks = fakeTasks({ rows: [1] }), figure = { dataset: {} }, out = { textContent: "" };
  const pending = latestDraw(tasks, figure, out, { working: "Simulating…" }, "sweep", { p: 4 });
  assert.equal(out.textContent, "Simulating…");
  assert.deepEqual(await pending, { rows: [1] });
  assert.deepEqual(tasks.calls, [["draw", "sweep", { p: 4 }]]);
  assert.match(figure.dataset.runMs, /^\d+$/);
});

test("a draw a newer one replaced: null, no run time", async () => {
  const figure = { dataset: {} }, out = { textContent: "" };
  assert.equal(await latestDraw(fakeTasks(null), figure, out, {}, "sweep"), null);
  assert.equal(figure.dataset.runMs, undefined);
});

test("a failed draw: null, and the readout says the failure and why", async () => {
  const figure = { dataset: {} }, out = { textContent: "" };
  assert.equal(await latestDraw(fakeTasks(new Error("bad mtbf")), figure, out, { working: "…" }, "sweep"), null);
  assert.equal(out.textContent, "The simulation could not run: bad mtbf");
  assert.equal(figure.dataset.runMs, undefined);
  await latestDraw(fakeTasks(new Error("no core")), figure, out, { failure: "The runs could not start" }, "curves");
  assert.equal(out.textContent, "The runs could not start: no core");
});
