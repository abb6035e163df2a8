// Deadlock and watchdog verdicts name the learner's line where each rank waits: the judge cluster
// records the call site of every recv/send/barrier a rank can block in, the RunResult carries lines: [{ rank, line }],
// and the shared verdict (run_checks.js unfinished, ui/run_output.js describeFailure) says them.
import test from "node:test";
import assert from "node:assert/strict";

import { runLocal } from "../../web/cluster/local_cluster.js";
import { linesText, stoppedLines } from "../../web/cluster/rank_lines.js";
import { unfinished } from "../../web/exercise/run_checks.js";
import { describeFailure } from "../../web/ui/run_output.js";

const recvFirst = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank + ctx.size - 1) % ctx.size;
  const x = await ctx.recv(prev);
  ctx.send(next, x);
  return x;
}`;

test("a receive-first ring deadlock names the line every rank waits at", async () => {
  const run = await runLocal(recvFirst, { ranks: 3, inputs: [{}, {}, {}] });
  assert.equal(run.status, "deadlock");
  assert.deepEqual(stoppedLines(run), [{ rank: 0, line: 3 }, { rank: 1, line: 3 }, { rank: 2, line: 3 }]);
  assert.match(unfinished(run).message, /^Deadlock: rank 0 waits for rank 2, .* \(ranks 0, 1 and 2 at line 3\)\./);
  assert.match(describeFailure(run), /\(ranks 0, 1 and 2 at line 3\)/);
});

test("a wait for a rank that finished is not called a cycle: the finished rank skipped its send", async () => {
  // Rank 2 skips the ring's send and returns: rank 0 waits for it, and rank 1 for rank 0 — a chain, no cycle.
  const skips = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank + ctx.size - 1) % ctx.size;
  if (ctx.rank === ctx.size - 1) return 0;
  ctx.send(next, ctx.rank);
  return await ctx.recv(prev);
}`;
  const run = await runLocal(skips, { ranks: 3, inputs: [{}, {}, {}] });
  assert.equal(run.status, "deadlock");
  assert.deepEqual(run.deadlock.cycle, []);
  const { message } = unfinished(run);
  assert.match(message, /^Deadlock: rank 0 waits for rank 2, which has finished \(rank 0 at line 5\)\. A finished rank sends nothing more/);
  assert.doesNotMatch(message, /cycle/);
});

test("ranks waiting at different lines — a synchronous send and a barrier — are named apart", async () => {
  const code = `async function main(ctx) {
  if (ctx.rank === 0) {
    await ctx.send(1, 1);
  } else {
    await ctx.barrier();
  }
}`;
  const run = await runLocal(code, { ranks: 2, inputs: [{}, {}], sendMode: "sync" });
  assert.equal(run.status, "deadlock");
  assert.deepEqual(stoppedLines(run), [{ rank: 0, line: 3 }, { rank: 1, line: 5 }]);
  assert.match(unfinished(run).message, /\(rank 0 at line 3, rank 1 at line 5\)/);
});

test("a call made inside a helper is located at the helper's line", async () => {
  const code = `async function get(ctx, from) {
  return ctx.recv(from);
}
async function main(ctx) {
  return await get(ctx, 1 - ctx.rank);
}`;
  const run = await runLocal(code, { ranks: 2, inputs: [{}, {}] });
  assert.deepEqual(stoppedLines(run), [{ rank: 0, line: 2 }, { rank: 1, line: 2 }]);
});

test("linesText: grouped by line, empty when nothing is known", () => {
  assert.equal(linesText([]), "");
  assert.equal(linesText([{ rank: 2, line: 9 }, { rank: 0, line: 6 }, { rank: 1, line: 9 }]), " (rank 0 at line 6, ranks 1 and 2 at line 9)");
});

test("code that does not parse is called a syntax error at its line, not an error a rank threw", async () => {
  const run = await runLocal("async function main(ctx) {\n  const x = ;\n  return x;\n}", { ranks: 3, inputs: [{}, {}, {}] });
  assert.equal(run.status, "error");
  assert.equal(run.error.syntax, true);
  assert.equal(run.error.line, 2);
  for (const text of [unfinished(run).message, describeFailure(run)]) {
    assert.match(text, /^A syntax error at line 2: <code>SyntaxError: Unexpected token [^<]*<\/code>\. The code does not parse, so no rank ran it/);
    assert.doesNotMatch(text, /threw/);
  }
  // A SyntaxError thrown while running (JSON.parse) is a rank's error like any other.
  const thrown = await runLocal("async function main(ctx) {\n  return JSON.parse(\"{\");\n}", { ranks: 2, inputs: [{}, {}] });
  assert.equal(thrown.error.syntax, undefined);
  assert.match(unfinished(thrown).message, /^Rank \d threw an error at line 2: <code>SyntaxError/);
});
