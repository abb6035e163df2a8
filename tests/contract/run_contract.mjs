// run_contract.mjs — contract cases (cluster_contract.mjs) for one run as a whole: fresh top-level state, console
// and progress capture, the watchdog, Stop, misuse of run(), one run at a time.
import assert from "node:assert/strict";
import { misuse, ok } from "./checks.mjs";
import { FRESH, PING_PONG, RING_SUM } from "./programs.mjs";

export const RUN_CASES = [
  {
    name: "every run, and every rank, starts the program's top level afresh; each rank gets its own copy of its input",
    size: 2, options: { inputs: [[], []] }, code: FRESH, then: [{ code: FRESH, options: { inputs: [[], []] } }, { code: FRESH, options: { inputs: [[], []] } }],
    check(got) {
      for (const run of [got, ...got.then]) {
        ok(run);
        assert.deepEqual(run.results, [[1, 1, [0]], [1, 1, [1]]]);
      }
    },
  },
  {
    name: "console output and ctx.log are captured per rank, live (onLog) and in the result",
    size: 3, code: `async function main(ctx) {
  console.log("hello from", ctx.rank, { a: [1, 2] });
  ctx.log("typed", new Float32Array([1, 2]));
  if (ctx.rank === 1) { console.warn("careful"); console.error("oops"); }
  return null;
}`,
    check(got) {
      ok(got);
      assert.deepEqual(got.logs[0], ["hello from 0 { a: [ 1, 2 ] }", "typed Float32Array(2) [ 1, 2 ]"]);
      assert.deepEqual(got.logs[1].slice(2), ["warning: careful", "error: oops"]);
      assert.equal(got.logs[2].length, 2);
      assert.equal(got.logged.length, 2 + 4 + 2);
      assert.ok(got.logged.every(([rank, line]) => got.logs[rank].includes(line)));
    },
  },
  {
    name: "a rank's log keeps at most 1000 lines and says how many it dropped",
    size: 2, code: "async function main(ctx) { for (let i = 0; i < 1005; i++) ctx.log(i); }",
    check(got) {
      for (const lines of got.logs) {
        assert.equal(lines.length, 1001);
        assert.equal(lines[999], "999");
        assert.equal(lines.at(-1), "… 5 more lines not shown (at most 1000 per rank)");
      }
    },
  },
  {
    name: "ctx.progress values reach the page (onProgress) and the result as copies taken at the call; a function is refused",
    size: 2, code: `async function main(ctx) {
  const point = { step: 0, loss: 2.5 };
  ctx.progress(point);
  point.step = 9;
  ctx.progress({ step: 1, loss: 1.25 });
}`,
    then: { code: "async function main(ctx) { ctx.progress(() => 1); }" },
    check(got) {
      ok(got);
      assert.deepEqual(got.progress, Array(2).fill([{ step: 0, loss: 2.5 }, { step: 1, loss: 1.25 }]));
      assert.deepEqual(got.progressed.map(([rank, v]) => [rank, v.step]).sort(), [[0, 0], [0, 1], [1, 0], [1, 1]]);
      assert.match(got.then.error.message, /^TypeError: progress: this value cannot be passed to the page/);
      assert.equal(got.then.error.line, 1);
    },
  },
  {
    name: "the watchdog stops an endless loop that never awaits, naming running and blocked ranks; the next run works",
    size: 3, options: { timeoutMs: 300 }, code: `async function main(ctx) {
  if (ctx.rank === 0) { ctx.send(1, "go"); return "fine"; }
  if (ctx.rank === 2) return await ctx.recv(1);
  await ctx.recv(0);       // spins only after a receive: by then rank 2 waits, on either cluster
  while (true) {}
}`,
    then: { code: RING_SUM, options: { inputs: [1, 2, 3] } },
    check(got) {
      assert.equal(got.status, "timeout");
      assert.deepEqual([got.timeout.ms, got.timeout.running, got.timeout.blocked], [300, [1], [2]]);
      assert.match(got.timeout.message, /^Stopped by the watchdog after 300 ms: rank 1 was still running/);
      assert.equal(got.results[0], "fine");
      assert.deepEqual(got.then.results, [6, 6, 6]);
    },
  },
  {
    name: "a rank that polls with probe for ever is running, not deadlocked",
    size: 2, options: { timeoutMs: 300 }, code: "async function main(ctx) { if (ctx.rank === 0) while (!(await ctx.probe(1))); }",
    check(got) {
      assert.equal(got.status, "timeout");
      assert.deepEqual(got.timeout.running, [0]);
    },
  },
  {
    name: "Stop (an AbortSignal) ends a run as stopped, also one stopped before it started",
    size: 2, options: { timeoutMs: Infinity, stopAfterMs: 20 }, code: PING_PONG,
    then: { code: PING_PONG, options: { stopAfterMs: 0 } },
    check(got) {
      assert.equal(got.status, "stopped");
      assert.deepEqual(got.stopped, { message: "Stopped." });
      assert.deepEqual([got.then.status, got.then.stopped], ["stopped", { message: "Stopped." }]);
    },
  },
  {
    name: "misuse is a readable rejection, and the cluster runs the next program",
    size: 2, code: RING_SUM, options: { sendMode: "eager" },
    during: { code: "async function main() {}", options: { unsendableInput: true } },
    then: { code: "async function main(ctx) { return ctx.input; }", options: { inputs: ["a", "b"] } },
    check(got) {
      misuse(got, 'sendMode must be "buffered" or "sync"');
      misuse(got.during, "an input cannot be sent to a Worker");
      assert.deepEqual(got.then.results, ["a", "b"]);
    },
  },
  {
    name: "misuse: a delivery without an integer seed, code that is not a string",
    size: 2, code: RING_SUM, options: { delivery: { seed: "x" } }, then: { code: 42 },
    check(got) {
      misuse(got, "delivery must be null or \\{ seed");
      misuse(got.then, "code must be a string");
    },
  },
  {
    name: "one run at a time: a second run() while one is in progress is rejected; the first completes",
    size: 2, code: RING_SUM, options: { inputs: [1, 2] }, during: { code: "async function main() {}" },
    check(got) {
      ok(got);
      assert.deepEqual(got.results, [3, 3]);
      misuse(got.during, "another run is still in progress");
    },
  },
];
