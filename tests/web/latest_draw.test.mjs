// latestDraw (web/lesson/core_tasks.js): a widget's drawing computed off the main thread, written once — the working
// text meanwhile, the answer or null (replaced by a newer draw, or failed: then said in the readout), and the run
// time and the count of drawn answers the page tests read (figure.dataset.runMs, .runs) recorded only for an answer;
// and coreTasks' latest(): a call still waiting, or one whose answer comes back while a newer call with its key
// waits, resolves with null, so only the newest is drawn.
//   node --test tests/web/latest_draw.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { coreTasks, latestDraw } from "../../web/lesson/core_tasks.js";

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
  assert.equal(figure.dataset.runs, "1");
  await latestDraw(tasks, figure, out, {}, "sweep", { p: 8 });
  assert.equal(figure.dataset.runs, "2", "a second answer counts as a second run, however long it took");
});

test("a draw a newer one replaced: null, no run time", async () => {
  const figure = { dataset: {} }, out = { textContent: "" };
  assert.equal(await latestDraw(fakeTasks(null), figure, out, {}, "sweep"), null);
  assert.equal(figure.dataset.runMs, undefined);
  assert.equal(figure.dataset.runs, undefined);
});

test("a failed draw: null, and the readout says the failure and why", async () => {
  const figure = { dataset: {} }, out = { textContent: "" };
  assert.equal(await latestDraw(fakeTasks(new Error("bad mtbf")), figure, out, { working: "…" }, "sweep"), null);
  assert.equal(out.textContent, "The simulation could not run: bad mtbf");
  assert.equal(figure.dataset.runMs, undefined);
  await latestDraw(fakeTasks(new Error("no core")), figure, out, { failure: "The runs could not start" }, "curves");
  assert.equal(out.textContent, "The runs could not start: no core");
});

test("coreTasks.latest: only the newest call is answered; a running call overtaken by a newer one resolves with null", async (t) => {
  // A Worker that answers when told to, and the smallest valid WebAssembly module as the core.
  const posted = [];
  class FakeWorker {
    constructor() { this.onmessage = null; }
    postMessage(message) { posted.push({ worker: this, message }); }
    terminate() {}
  }
  const saved = { Worker: globalThis.Worker, fetch: globalThis.fetch };
  globalThis.Worker = FakeWorker;
  globalThis.fetch = async () => new Response(new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]));
  t.after(() => Object.assign(globalThis, saved));
  const until = async (n) => { while (posted.length < n) await new Promise((r) => setTimeout(r, 1)); };
  const answer = (i, result) => posted[i].worker.onmessage({ data: { id: posted[i].message.id, result } });

  const tasks = coreTasks(new URL("file:///widget_setup.js"));
  const first = tasks.latest("draw", "run", 1);
  await until(1);                                   // 1 runs
  const second = tasks.latest("draw", "run", 2);    // waits behind 1
  const third = tasks.latest("draw", "run", 3);     // replaces 2
  const other = tasks.call("table", 9);             // no key: always answered
  assert.equal(await second, null, "a waiting call a newer one replaced");
  answer(0, "one");
  assert.equal(await first, null, "1's answer came back while 3 waited: out of date");
  await until(2);
  assert.deepEqual(posted[1].message.args, [3]);
  answer(1, "three");
  assert.equal(await third, "three");
  await until(3);
  answer(2, "nine");
  assert.equal(await other, "nine");
  const alone = tasks.latest("draw", "run", 4);
  await until(4);
  answer(3, "four");
  assert.equal(await alone, "four", "nothing newer waits: answered");
});
