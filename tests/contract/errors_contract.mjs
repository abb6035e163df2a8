// errors_contract.mjs — contract cases (cluster_contract.mjs) for a learner's mistakes: the error's rank, line,
// column and words — exceptions, bad ctx arguments, top-level errors, timers and un-awaited calls, syntax
// errors, a missing main, values that cannot be copied, and errors raised in the course's part of a program.
import assert from "node:assert/strict";
import { failsWith } from "./checks.mjs";

export const ERROR_CASES = [
  {
    name: "errors: an exception names the rank, the learner's line and column",
    size: 3, code: `async function main(ctx) {
  if (ctx.rank === 2) {
    const grads = null;
    return grads.length;
  }
  return ctx.rank;
}`,
    check(got) {
      assert.equal(got.status, "error");
      assert.deepEqual([got.error.rank, got.error.line, got.error.column], [2, 4, 18]);
      assert.match(got.error.message, /^TypeError: .*null/);
    },
  },
  {
    name: "errors: a ctx call with a bad rank is a RangeError at the learner's call",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 1) {
    ctx.send(7, 1);
  }
}`,
    check: (got) => failsWith(got, { rank: 1, message: "RangeError: send: there is no rank 7 (ranks are 0 … 1)", line: 3, column: 9 }),
  },
  {
    name: "errors: at the top level, on line 1, with the column the learner sees, again when the same code runs again",
    size: 2, code: "const a = null; const b = a.length;\nasync function main(ctx) {}",
    then: { code: "const a = null; const b = a.length;\nasync function main(ctx) {}" },
    check(got) {
      // Every rank fails: the judge names the first it loads, the Workers the first to report.
      for (const run of [got, got.then]) {
        assert.equal(run.status, "error");
        assert.ok([0, 1].includes(run.error.rank));
        assert.deepEqual([run.error.line, run.error.column], [1, 29]);
        assert.match(run.error.message, /^TypeError: Cannot read properties of null/);
      }
    },
  },
  {
    name: "errors: thrown in a timer callback, or by an un-awaited async call, on the rank that ran it",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 1) setTimeout(() => { throw new Error("late"); }, 10);
  await new Promise((ok) => setTimeout(ok, 200));
}`,
    then: { code: `async function later() { await null; throw new Error("boom"); }
async function main(ctx) { if (ctx.rank === 1) later(); return await ctx.recv(1 - ctx.rank); }` },
    check(got) {
      assert.equal(got.status, "error");
      assert.deepEqual([got.error.rank, got.error.line, got.error.message], [1, 2, "Error: late"]);
      failsWith(got.then, { rank: 1, message: "Error: boom", line: 1, column: 44 });
    },
  },
  {
    name: "errors: a syntax error names its line; no rank runs; a stray brace is one too",
    size: 2, code: "async function main(ctx) {\n  let x = 1;\n  x y;\n}",
    then: { code: "async function main(ctx) { return 1; }}" },
    check(got) {
      assert.equal(got.status, "error");
      assert.match(got.error.message, /^SyntaxError: Unexpected identifier 'y'/);
      assert.equal(got.error.line, 3);
      assert.equal(got.error.syntax, true);
      assert.match(got.then.error.message, /^SyntaxError: Unexpected token '}'/);
      assert.equal(got.then.error.line, 1);
    },
  },
  {
    name: "errors: an unclosed function is a SyntaxError at the end of the input",
    size: 2, code: "async function main(ctx) {\n  return 1;\n",
    check(got) {
      assert.match(got.error.message, /^SyntaxError: Unexpected end of input/);
      assert.equal(got.error.line, 3);
    },
  },
  {
    name: "errors: code without main, or with a main that is not a function",
    size: 2, code: "async function mian(ctx) { return 1; }", then: { code: "const main = 3;" },
    check(got) {
      assert.equal(got.status, "error");
      assert.match(got.error.message, /must define a function named main/);
      assert.match(got.then.error.message, /main must be a function, .* \(it is a number\)/);
    },
  },
  {
    name: "errors: a returned value or a sent value that cannot be copied to the page or another Worker",
    size: 2, code: "async function main(ctx) { return () => 1; }", then: { code: "async function main(ctx) { ctx.send(1 - ctx.rank, () => 1); }" },
    check(got) {
      assert.match(got.error.message, /main\(\) returned a value that cannot be passed to the page/);
      assert.match(got.then.error.message, /send: this value cannot be sent to another Worker/);
    },
  },
  {
    name: "errors: bad arguments to recvAny and probe are named",
    size: 2, code: "async function main(ctx) { await ctx.recvAny({ tag: 1.5 }); }",
    then: [{ code: "async function main(ctx) { await ctx.probe(7); }" }, { code: "async function main(ctx) { await ctx.probe(0, { tag: 1.5 }); }" }],
    check(got) {
      assert.equal(got.status, "error");
      assert.match(got.error.message, /recvAny: tag must be an integer or a string/);
      assert.match(got.then[0].error.message, /probe: there is no rank 7 \(ranks are 0 … 1\)/);
      assert.match(got.then[1].error.message, /probe: tag must be an integer or a string/);
    },
  },
  {
    name: "errors: a composed program (learnerLines) reports the course's error at the learner's calling line",
    size: 2, options: { learnerLines: 3 }, code: `function helper(x) {
  return course(x + 1);
}
async function main(ctx) { return helper(ctx.rank); }
function course(x) { if (x > 1) throw new RangeError("x is too large"); return x; }`,
    check: (got) => failsWith(got, { rank: 1, line: 2, column: 10,
      message: "RangeError: x is too large — raised inside the course's code by your call at line 2" }),
  },
];
