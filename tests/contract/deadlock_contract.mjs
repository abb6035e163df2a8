// deadlock_contract.mjs — contract cases (cluster_contract.mjs) for deadlocks: found at once, with the wait-for
// cycle and the sentence WaitForGraph (web/cluster/deadlock.js) writes — cycles, finished ranks, barriers, tags,
// synchronous sends, recvAny.
import assert from "node:assert/strict";
import { assertSpansTile, deadlock } from "./checks.mjs";

export const DEADLOCK_CASES = [
  {
    name: "deadlock: both ranks receive first — found at once (before the 5 s watchdog), with the cycle and the open wait closed",
    size: 2, options: { timeoutMs: 5000 }, code: `async function main(ctx) {
  const other = 1 - ctx.rank;
  const x = await ctx.recv(other);   // both wait here: nobody ever sends
  ctx.send(other, ctx.rank);
  return x;
}`,
    check(got) {
      deadlock(got, "rank 0 waits for rank 1, rank 1 waits for rank 0");
      assert.deepEqual(got.deadlock.cycle, [0, 1]);
      assert.ok(got.elapsedMs < 1500, `detected after ${got.elapsedMs} ms`);
      assert.ok(got.spans.some((s) => s.rank === 0 && s.kind === "wait" && s.peer === 1), "the open wait is closed");
      assertSpansTile(got.spans, 2);
    },
  },
  {
    name: "deadlock: a three-rank cycle",
    size: 3, code: `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size;
  await ctx.recv(next, { tag: 0 });
  ctx.send(next, "never");
}`,
    check(got) {
      deadlock(got, "rank 0 waits for rank 1, rank 1 waits for rank 2, rank 2 waits for rank 0");
      assert.deepEqual(got.deadlock.cycle, [0, 1, 2]);
    },
  },
  {
    name: "deadlock: waiting for a rank that has finished (one message sent, two wanted)",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) { ctx.send(1, 1); return; }
  await ctx.recv(0);
  await ctx.recv(0);
}`,
    check(got) {
      deadlock(got, "rank 1 waits for rank 0, which has finished");
      assert.deepEqual(got.deadlock.cycle, []);
      assert.equal(got.trace.length, 1);
    },
  },
  {
    name: "deadlock: a barrier that a finished rank skipped",
    size: 3, code: `async function main(ctx) {
  if (ctx.rank === 2) return;            // skips the barrier
  await ctx.barrier();
}`,
    check: (got) => deadlock(got, "rank 0 waits in barrier for rank 2, which has finished"),
  },
  {
    name: "deadlock: a barrier against a tagged receive",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) await ctx.barrier();
  else await ctx.recv(0, { tag: 3 });
}`,
    check: (got) => deadlock(got, "rank 0 waits in barrier for rank 1, rank 1 waits for rank 0 (tag 3)"),
  },
  {
    name: "deadlock: a message with the wrong tag is named as held, never received",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) { ctx.send(1, "x", { tag: 1 }); await ctx.recv(1); }
  else await ctx.recv(0, { tag: 2 });
}`,
    check(got) {
      deadlock(got, "rank 0 waits for rank 1, rank 1 waits for rank 0 (tag 2)" +
        "; rank 1 waits for tag 2 but holds an unreceived message from rank 0 with tag 1");
      assert.deepEqual(got.trace.map((m) => m.recvTime), [null]);
    },
  },
  {
    name: "deadlock: a tagged receive from a rank that finished after sending another tag",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) ctx.send(1, 5, { tag: 2 }); else return await ctx.recv(0, { tag: 1 });
}`,
    check: (got) => deadlock(got, "rank 1 waits for rank 0 (tag 1), which has finished" +
      "; rank 1 waits for tag 1 but holds an unreceived message from rank 0 with tag 2"),
  },
  {
    name: "deadlock: synchronous sends on both sides before the receives (MPI_Ssend)",
    size: 2, options: { sendMode: "sync" }, code: `async function main(ctx) {
  const other = 1 - ctx.rank;
  await ctx.send(other, ctx.rank);
  return await ctx.recv(other);
}`,
    check(got) {
      deadlock(got, "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0");
      assert.deepEqual(got.deadlock.cycle, [0, 1]);
    },
  },
  {
    name: "recvAny deadlock: every other rank has finished; the any-wait's span has no peer",
    size: 3, options: { timeoutMs: 5000 }, code: `async function main(ctx) {
  if (ctx.rank === 0) { await ctx.recvAny(); return await ctx.recvAny(); }
  if (ctx.rank === 1) ctx.send(0, 1);
}`,
    check(got) {
      deadlock(got, "rank 0 waits for a message from any rank, and every other rank has finished");
      assert.ok(got.spans.some((s) => s.rank === 0 && s.kind === "wait" && s.peer === null), "a wait for anyone has no peer");
    },
  },
  {
    name: "recvAny deadlock: a cycle through the any-wait",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) return await ctx.recvAny({ tag: 2 });
  return await ctx.recv(0);
}`,
    check: (got) => deadlock(got, "rank 0 waits for a message from any rank (tag 2), rank 1 waits for rank 0"),
  },
  {
    name: "recvAny deadlock: a tagged any-wait holding a message with another tag",
    size: 3, code: `async function main(ctx) {
  if (ctx.rank === 0) return await ctx.recvAny({ tag: 1 });
  ctx.send(0, 7, { tag: 2 });
}`,
    check(got) {
      assert.equal(got.status, "deadlock");
      assert.match(got.deadlock.message, /waits for tag 1 but holds an unreceived message from rank [12] with tag 2/);
    },
  },
];
