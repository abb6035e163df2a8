// The Worker cluster's judging modes and long-run controls, in real Chromium: synchronous sends (MPI_Ssend:
// a send completes only when received) expose a send-then-receive deadlock with its wait-for cycle; seeded
// delivery fuzzing keeps per-pair order and results but changes which sender's message arrives first; Stop
// ends a run at once; the stall watchdog stops a run that makes no progress but not one that advances; an
// error raised inside course code is reported at the learner's calling line; ctx.progress reaches the page.
//   node --test tests/e2e/cluster_modes.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openClusterFixture } from "./cluster_page.mjs";

const LIMIT = { timeout: 60_000 };
let fx;
before(async () => { fx = await openClusterFixture(); });
after(async () => { await fx?.close(); });

// Both ranks send first, then receive: fine with buffered sends, a deadlock with synchronous ones.
const HEAD_TO_HEAD = `
async function main(ctx) {
  const other = 1 - ctx.rank;
  await ctx.send(other, ctx.rank);
  return await ctx.recv(other);
}`;

// Rank 0 waits for whichever of ranks 1 and 2 arrives first; both send at once.
const RACE = `
async function main(ctx) {
  if (ctx.rank === 0) return await Promise.race([ctx.recv(1).then(() => 1), ctx.recv(2).then(() => 2)]);
  ctx.send(0, ctx.rank);
}`;

describe("judging modes", () => {
  test("sync sends: send-then-receive deadlocks with its cycle; the safe order and unawaited sends pass", LIMIT, async () => {
    const buffered = await fx.run(2, HEAD_TO_HEAD);
    assert.equal(buffered.status, "ok");
    assert.deepEqual(buffered.results, [1, 0]);

    const sync = await fx.run(2, HEAD_TO_HEAD, { sendMode: "sync" });
    assert.equal(sync.status, "deadlock");
    assert.equal(sync.deadlock.message, "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0");
    assert.deepEqual(sync.deadlock.cycle, [0, 1]);
    assert.ok(sync.elapsedMs < 1500, `detected after ${sync.elapsedMs} ms`);

    const ordered = await fx.run(2, `
async function main(ctx) {
  const other = 1 - ctx.rank;
  if (ctx.rank === 0) { await ctx.send(other, "ping"); return await ctx.recv(other); }
  const got = await ctx.recv(other);
  await ctx.send(other, got + "-pong");
  return got;
}`, { sendMode: "sync" });
    assert.equal(ordered.status, "ok", JSON.stringify(ordered.deadlock ?? ordered.error));
    assert.deepEqual(ordered.results, ["ping-pong", "ping"]);

    // An unawaited send is a nonblocking send (MPI_Isend): the ring of sends-then-receives completes.
    const ring = await fx.run(4, `
async function main(ctx) {
  const p = ctx.size;
  ctx.send((ctx.rank + 1) % p, ctx.rank);
  return await ctx.recv((ctx.rank + p - 1) % p);
}`, { sendMode: "sync" });
    assert.equal(ring.status, "ok");
    assert.deepEqual(ring.results, [3, 0, 1, 2]);
  });

  test("a sync send blocked on a receiver that waits elsewhere is a deadlock; one whose message was taken is not", LIMIT, async () => {
    const stuck = await fx.run(3, `
async function main(ctx) {
  if (ctx.rank === 0) await ctx.send(1, "x");       // rank 1 never receives from 0
  if (ctx.rank === 1) await ctx.recv(2);             // rank 2 never sends
  if (ctx.rank === 2) await ctx.recv(0);             // rank 0 never gets past its send
}`, { sendMode: "sync" });
    assert.equal(stuck.status, "deadlock");
    assert.equal(stuck.deadlock.message, "rank 0 waits in send for rank 1, rank 1 waits for rank 2, rank 2 waits for rank 0");
  });

  test("fuzzed delivery: per-pair order and results kept; the race is won by both senders across seeds", LIMIT, async () => {
    const ordered = await fx.run(3, `
async function main(ctx) {
  if (ctx.rank > 0) { for (let i = 0; i < 20; i++) ctx.send(0, ctx.rank * 100 + i); return; }
  const got = [];
  for (let i = 0; i < 20; i++) got.push(await ctx.recv(1), await ctx.recv(2));
  return got;
}`, { delivery: { seed: 7 } });
    assert.equal(ordered.status, "ok");
    assert.deepEqual(ordered.results[0], Array.from({ length: 20 }, (_, i) => [100 + i, 200 + i]).flat());

    const winners = new Set();
    for (let seed = 1; seed <= 12 && winners.size < 2; seed++) {
      const r = await fx.run(3, RACE, { delivery: { seed } });
      assert.equal(r.status, "ok");
      winners.add(r.results[0]);
    }
    assert.deepEqual([...winners].sort(), [1, 2], "both interleavings occur");
    const bad = await fx.page.evaluate(async () => {
      try { await window.fixture.run(2, "async function main() {}", { delivery: { seed: 1.5 } }); return "accepted"; }
      catch (err) { return err.message; }
    });
    assert.match(bad, /delivery must be null or \{ seed: an integer \}/);
  });
});

describe("long runs", () => {
  test("Stop ends a spinning run at once and the cluster runs the next program", LIMIT, async () => {
    const stopped = await fx.run(3, "async function main(ctx) { if (ctx.rank === 1) while (true) {} await ctx.recv(1); }",
      { timeoutMs: Infinity, stopAfterMs: 300 });
    assert.equal(stopped.status, "stopped");
    assert.ok(stopped.elapsedMs < 1500, `stopped after ${stopped.elapsedMs} ms`);
    const next = await fx.run(3, "async function main(ctx) { return ctx.rank * 2; }");
    assert.deepEqual(next.results, [0, 2, 4]);
  });

  test("the stall watchdog stops a run that makes no progress, not one that advances", LIMIT, async () => {
    const advancing = await fx.run(2, `
async function main(ctx) {
  const other = 1 - ctx.rank;
  for (let step = 0; step < 30; step++) {
    const until = ctx.now() + 50;
    while (ctx.now() < until) {}               // 50 ms of work per step: 1.5 s in all, > stallMs; 20× margin
    // per step, so a loaded machine (a Worker's 50 ms of CPU taking 10× longer) is not taken for a stall
    ctx.progress({ step });
    ctx.send(other, step);
    await ctx.recv(other);
  }
  return "done";
}`, { timeoutMs: Infinity, stallMs: 1000 });
    assert.equal(advancing.status, "ok", JSON.stringify(advancing.timeout));
    assert.ok(advancing.elapsedMs > 1500);
    assert.deepEqual(advancing.progress[0].map((p) => p.step), Array.from({ length: 30 }, (_, i) => i));
    assert.equal(advancing.progressed.length, 60, "onProgress saw every value");

    const stuck = await fx.run(2, "async function main(ctx) { if (ctx.rank === 0) while (true) {} await ctx.recv(0); }",
      { timeoutMs: Infinity, stallMs: 1000 });
    assert.equal(stuck.status, "timeout");
    assert.equal(stuck.timeout.stalled, true);
    assert.match(stuck.timeout.message, /no rank made progress for 1 s: rank 0 was still running/);
  });

  test("an error raised in course code is reported at the learner's line that called it", LIMIT, async () => {
    const learner = `async function main(ctx) {
  return helper(ctx, -1);
}`;
    const course = `
function helper(ctx, n) {
  if (n < 0) throw new RangeError("helper: n must be >= 0, got " + n);
  return n;
}`;
    const res = await fx.run(1, learner + course, { learnerLines: 3 });
    assert.equal(res.status, "error");
    assert.equal(res.error.line, 2);
    assert.match(res.error.message, /^RangeError: helper: n must be >= 0, got -1 — raised inside the course's code by your call at line 2$/);
  });
});
