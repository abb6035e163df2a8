// watchdog_lines.test.mjs — the watchdog's verdict says where each rank was: the line of the loop
// a running rank spins in, the line of the await an idle rank sleeps on (line markers: web/cluster/line_marks.js),
// and the judge cluster stops loops that never let its scheduler run (`for (;;) await null`, `for (;;) {}`).
// The Worker side (pings, the editor's marks) is tests/e2e/stopped_lines.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";

import { runLocal } from "../../web/cluster/local_cluster.js";
import { markLines } from "../../web/cluster/line_marks.js";
import { stoppedLines, watchdogMessage } from "../../web/cluster/rank_lines.js";
import { unfinished } from "../../web/exercise/run_checks.js";
import { describeFailure } from "../../web/ui/run_output.js";

const LIMIT = { timeout: 20000 };   // a judge that cannot stop the loop hangs: this fails the test instead

// A judge that cannot stop a loop hangs the thread it runs in: run it in a thread of its own, and give up on it.
function inThread(code, options, ms = 15000) {
  const worker = new Worker(`
    const { parentPort, workerData } = require("node:worker_threads");
    import(workerData.url).then(({ runLocal }) => runLocal(workerData.code, workerData.options))
      .then((run) => parentPort.postMessage({ status: run.status, timeout: run.timeout }));`,
  { eval: true, workerData: { url: new URL("../../web/cluster/local_cluster.js", import.meta.url).href, code, options } });
  return new Promise((resolve) => {
    const timer = setTimeout(() => { worker.terminate(); resolve(null); }, ms);
    worker.once("message", (run) => { clearTimeout(timer); worker.terminate(); resolve(run); });
  });
}

test("the judge stops `for (;;) await null` (microtasks only) and names the rank's line", LIMIT, async () => {
  const code = `async function main(ctx) {
  if (ctx.rank === 1) return await ctx.recv(0);
  let spins = 0;
  for (;;) {
    spins++;
    await null;
  }
}`;
  const started = performance.now();
  const run = await inThread(code, { ranks: 2, timeoutMs: 300 });
  assert.ok(run, "the judge did not stop the loop in 15 s");
  assert.ok(performance.now() - started < 10000, "stopped within seconds");
  assert.equal(run.status, "timeout");
  assert.ok(run.timeout.running.includes(0));
  assert.deepEqual(stoppedLines(run).filter((x) => x.rank === 0), [{ rank: 0, line: 6 }], "the await it spins on");
  assert.match(run.timeout.message, /^Stopped by the watchdog after 300 ms: .*still running \(rank 0 at line 6\) — an endless loop/);
  assert.match(unfinished(run).message, /rank 0 at line 6/);
});

test("the judge stops a synchronous endless loop and names the loop's line", LIMIT, async () => {
  const code = `async function main(ctx) {
  let x = 0;
  while (x >= 0)
    x = (x + 1) % 7;
  return x;
}`;
  const run = await inThread(code, { ranks: 1, timeoutMs: 200 });
  assert.ok(run, "the judge did not stop the loop in 15 s");
  assert.equal(run.status, "timeout");
  assert.deepEqual(run.timeout.running, [0]);
  assert.deepEqual(stoppedLines(run), [{ rank: 0, line: 3 }]);
  assert.match(describeFailure(run), /rank 0 was still running \(rank 0 at line 3\)/);
  assert.doesNotMatch(describeFailure(run), /Waiting/, "a running rank's line is not a wait");
});

test("ranks exchanging messages for ever: each running rank's loop line, blocked ranks' calls", LIMIT, async () => {
  const code = `async function main(ctx) {
  const other = 1 - ctx.rank;
  while (true) {
    ctx.send(other, 0);
    await ctx.recv(other);
  }
}`;
  const run = await runLocal(code, { ranks: 2, timeoutMs: 200, delivery: { seed: 3 } });
  assert.equal(run.status, "timeout");
  for (const { rank, line } of stoppedLines(run)) assert.ok(line === 3 || line === 5, `rank ${rank} at line ${line}`);
  for (const r of run.timeout.running) assert.ok(stoppedLines(run).some((x) => x.rank === r), `running rank ${r} has a line`);
});

test("an await nothing resolves is named as such, at its line, in the judge", LIMIT, async () => {
  const code = `async function never() {
  return new Promise(() => {});
}
async function main(ctx) {
  await ctx.barrier();
  await never();
}`;
  const run = await runLocal(code, { ranks: 3 });
  assert.equal(run.status, "deadlock");
  assert.deepEqual(stoppedLines(run), [0, 1, 2].map((rank) => ({ rank, line: 6 })));
  assert.match(unfinished(run).message, /suspended on a promise .* \(ranks 0, 1 and 2 at line 6\)\. An <code>await<\/code> on a promise that nothing resolves/);
  assert.doesNotMatch(unfinished(run).message, /cycle|recv/);
});

test("a loop polling probe for a rank that finished is running, and named as polling", LIMIT, async () => {
  const code = `async function main(ctx) {
  if (ctx.rank !== 0) return 0;
  while (!(await ctx.probe(1, { tag: 7 }))) {}
  return 1;
}`;
  const run = await runLocal(code, { ranks: 2, timeoutMs: 200 });
  assert.equal(run.status, "timeout");
  assert.deepEqual(run.timeout.running, [0]);
  assert.match(run.timeout.message, /^Stopped by the watchdog after 200 ms: rank 0 was still running \(rank 0 at line 3\) — polling with probe for a message that nobody sends\?$/);
  assert.doesNotMatch(run.timeout.message, /idle/);
});

test("a rank that probed once and then spins without yielding is looping, not polling", LIMIT, async () => {
  const code = `async function main(ctx) {
  if (ctx.rank !== 0) return 0;
  await ctx.probe(1);
  for (;;) {}
}`;
  const run = await runLocal(code, { ranks: 2, timeoutMs: 200 });
  assert.equal(run.status, "timeout");
  assert.match(run.timeout.message, /an endless loop, or more work than the time allows\?/);
  assert.doesNotMatch(run.timeout.message, /polling/);
});

test("the watchdog's words: running ranks with their loops, idle ranks with their awaits", () => {
  const lines = [{ rank: 0, line: 4 }, { rank: 1, line: 9 }, { rank: 2, line: 9 }];
  assert.equal(watchdogMessage({ running: [], idle: [0, 1, 2], blocked: [], lines, what: "after 3000 ms" }),
    "Stopped by the watchdog after 3000 ms: every rank is idle, waiting on an await that nothing resolves " +
    "(rank 0 at line 4, ranks 1 and 2 at line 9).");
  assert.equal(watchdogMessage({ running: [0], idle: [], blocked: [1, 2], lines, what: "after 3000 ms" }),
    "Stopped by the watchdog after 3000 ms: rank 0 was still running (rank 0 at line 4) — an endless loop, or more " +
    "work than the time allows?; ranks 1, 2 were waiting.");
  assert.equal(watchdogMessage({ running: [0], polling: [0], idle: [], blocked: [1], lines, what: "after 3000 ms" }),
    "Stopped by the watchdog after 3000 ms: rank 0 was still running (rank 0 at line 4) — polling with probe for a " +
    "message that nobody sends?; rank 1 was waiting.");
  // Every unfinished rank is named: a running rank, an idle one and a waiting one in one run.
  assert.equal(watchdogMessage({ running: [1], polling: [1], idle: [3], blocked: [0], lines: [{ rank: 1, line: 6 }, { rank: 3, line: 8 }],
    what: "after 3000 ms" }),
    "Stopped by the watchdog after 3000 ms: rank 1 was still running (rank 1 at line 6) — polling with probe for a " +
    "message that nobody sends?; rank 3 was idle, waiting on an await that nothing resolves (rank 3 at line 8); rank 0 was waiting.");
  assert.equal(watchdogMessage({ running: [1], idle: [], blocked: [], lines: [], what: "after 5 ms" }),
    "Stopped by the watchdog after 5 ms: rank 1 was still running (an endless loop, or more work than the time allows?).");
});

test("line markers keep every line and map columns back", () => {
  const source = `async function main(ctx) {
  for (const x of [1]) await ctx.recv(x);
  do n++; while (n < 3)
  const y = await helper(await ctx.recv(0)) + undefinedName;
}`;
  const { code, original } = markLines(source);
  assert.equal(code.split("\n").length, source.split("\n").length);
  assert.match(code, /for \(const x of \[1\]\) \{__dsmlAt\(2\);await \(__dsmlAt\(2\),ctx\.recv\(x\)\);\}/);
  assert.match(code, /do \{__dsmlAt\(3\);n\+\+;\} while/);
  const line4 = code.split("\n")[3];
  const at = line4.indexOf("undefinedName") + 1;   // 1-based, in the marked line
  assert.equal(original(4, at), source.split("\n")[3].indexOf("undefinedName") + 1);
  assert.equal(markLines("async function main( {").code, "async function main( {", "what does not parse is left alone");
});

test("an error on a marked line is reported at the learner's column", LIMIT, async () => {
  const code = `async function main(ctx) {
  for (let i = 0; i < 2; i++) await ctx.barrier(); undefinedName;
}`;
  const run = await runLocal(code, { ranks: 1 });
  assert.equal(run.status, "error");
  assert.deepEqual([run.error.line, run.error.column], [2, code.split("\n")[1].indexOf("undefinedName") + 1]);
});
