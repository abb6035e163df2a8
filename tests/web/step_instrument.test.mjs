// step_instrument.test.mjs — the step-through's instrumenter (exercise/step_instrument.js): a hook before every
// statement of async functions only, on the statement's own line; the names a pause reads; which ctx call a
// statement makes; error columns mapped back; and the checker's words a step-through can jump to
// (exercise/step_through.js).
import test from "node:test";
import assert from "node:assert/strict";
import { instrument } from "../../web/exercise/step_instrument.js";
import { parseMessage, findMoment } from "../../web/exercise/step_through.js";

const SOURCE = `const N = 4;
function helper(a) { return a + 1; }
async function main(ctx) {
  const { rank, size } = ctx;
  for (let i = 0; i < N; i++) ctx.send((rank + 1) % size, i);
  const got = await ctx.recv((rank + size - 1) % size);
  if (got) await ctx.barrier();
  return helper(got);
}`;

test("a hook before each statement of async functions, every line kept", () => {
  const { code, sites } = instrument(SOURCE);
  assert.equal(code.split("\n").length, SOURCE.split("\n").length);
  assert.deepEqual(sites.map((s) => [s.line, s.comm]), [[4, null], [5, null], [5, "send"], [6, "recv"], [7, null], [7, "barrier"], [8, null]]);
  assert.ok(!/helper\(a\) \{ if/.test(code), "no hook in a plain function");
  assert.deepEqual(sites[2].names, ["N", "ctx", "rank", "size", "i"]);
  assert.deepEqual(sites[0].names, ["N", "ctx"], "rank and size are still in their TDZ before line 4");
  assert.deepEqual(sites[6].names, ["N", "ctx", "rank", "size", "got"]);
});

test("recvAny is a receive, as recv is", () => {
  const { sites } = instrument(`async function main(ctx) {
  const { from, data } = await ctx.recvAny({ tag: "push" });
  return data;
}`);
  assert.deepEqual(sites.map((s) => [s.line, s.comm]), [[2, "recv"], [3, null]]);
});

test("error columns map back to the learner's code", () => {
  const { code, original } = instrument(SOURCE);
  const line = code.split("\n")[5];
  const col = line.indexOf("ctx.recv") + 1;
  assert.equal(original(6, col), SOURCE.split("\n")[5].indexOf("ctx.recv") + 1);
  assert.equal(original(1, code.indexOf("N = 4") + 1), 7);
});

test("a program that does not parse throws the parser's SyntaxError with its line", () => {
  assert.throws(() => instrument("async function main(ctx) {\n  let x = ;\n}"), (err) => err instanceof SyntaxError && err.loc.line === 2);
});

test("a checker's message → the moment it names", () => {
  assert.deepEqual(parseMessage("Rank 0's message 2 carried 5 numbers").nth, 2);
  assert.deepEqual(parseMessage("the ring runs backwards (for example rank 0 sent to rank 2)").to, 2);
  assert.equal(parseMessage("Rank 1's 2nd message to rank 0 (the echo").nthTo, 2);
  assert.equal(parseMessage("Rank 3 never received the message rank 2 sent").lostFrom, 2);
  assert.equal(parseMessage("No rank named here").rank, null);
  const session = { last: 9, messages: [
    { src: 0, dst: 1, sent: 3, taken: 4 }, { src: 0, dst: 1, sent: 6, taken: null }, { src: 1, dst: 0, sent: 2, taken: 5 }] };
  assert.deepEqual(findMoment(session, parseMessage("Rank 0's message 2 carried")).frame, 5);
  assert.deepEqual(findMoment(session, parseMessage("Rank 1 never received the message rank 0 sent")).highlight, { src: 0, n: 2 });
  assert.equal(findMoment(session, parseMessage("Rank 1 threw an error at line 3")).frame, 9);
});
