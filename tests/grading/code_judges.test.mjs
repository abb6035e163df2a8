// code_judges.test.mjs — the grader's threads (scripts/code_judges.mjs) survive the code a learner may hand in: code
// that ends its thread, and code the judge cluster's own watchdog cannot stop (a regular expression that backtracks
// for ever never reaches a line marker), which the grader stops at the Check's budget. Each becomes a failed verdict
// with a message, and the next Check runs on a fresh thread.
import test from "node:test";
import assert from "node:assert/strict";
import { CodeJudges } from "../../scripts/code_judges.mjs";
import { EXERCISES } from "../exercises/course.mjs";

const ring = EXERCISES.find((e) => e.id === "w1-token-ring");
const RIGHT = `async function main(ctx) {
  const p = ctx.size, r = ctx.rank;
  if (r === 0) { ctx.send(1, ctx.input.start + ctx.input.value); return await ctx.recv(p - 1); }
  ctx.send((r + 1) % p, (await ctx.recv(r - 1)) + ctx.input.value);
}`;

test("code that ends the thread or never yields is a failed verdict, and the next learner's Check still runs", async () => {
  // Budget: 100 ms per run of the plan and 3 s to start a thread — far less than the regular expression needs.
  const judges = new CodeJudges({ jobs: 1, attempt: 1, runMs: 100, marginMs: 3000 });
  try {
    const exited = await judges.judge(ring, "async function main(ctx) { process.exit(3); }", 11);
    assert.deepEqual(exited, { pass: false, message: "The code ended the grader's thread (exit code 3)." });
    const started = Date.now();
    const stuck = await judges.judge(ring, 'async function main(ctx) { /(a+)+$/.test("a".repeat(40) + "b"); }', 11);
    assert.equal(stuck.pass, false);
    assert.match(stuck.message, /^The Check did not finish in \d+ s .*so the grader stopped it/);
    assert.ok(Date.now() - started < 15_000, "stopped at its budget");
    const next = await judges.judge(ring, RIGHT, 11);
    assert.equal(next.pass, true, next.message);
  } finally {
    await judges.close();
  }
});
