// local_cluster.test.mjs — what only the judge cluster (web/cluster/local_cluster.js) does: a virtual clock that
// is exact, seeded delivery orders that replay exactly, synchronous sends timed on that clock, a verdict on a
// rank suspended on a promise nothing can resolve, a complete trace when the watchdog fires, virtual timers, and
// LocalCluster's own constructor and terminate(). The ctx and RunResult it shares with the Worker cluster are the
// contract, tests/contract/cluster_contract.mjs, run on it by tests/web/cluster_contract.test.mjs.
//   node --test tests/web/local_cluster.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster, runLocal } from "../../web/cluster/local_cluster.js";
import { ANY_SERVER, PROBE, RUN_RESULT_KEYS } from "../contract/cluster_contract.mjs";

const RING = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  if (ctx.rank === 0) { ctx.send(next, ctx.input); return await ctx.recv(prev); }
  ctx.send(next, (await ctx.recv(prev)) + 1);
}`;

test("a RunResult of the Worker cluster's shape plus its clock, which is virtual and exact", async () => {
  const run = await runLocal(RING, { ranks: 4, inputs: [10, 0, 0, 0] });
  assert.deepEqual(Object.keys(run).sort(), [...RUN_RESULT_KEYS, "clock"].sort());
  assert.equal(run.status, "ok");
  assert.deepEqual(run.results, [13, undefined, undefined, undefined]);
  assert.deepEqual(run.clock, { kind: "virtual", resolution: 0, skew: 0 });
  assert.deepEqual(run.trace.map((m) => [m.src, m.dst, m.tag, m.bytes]), [[0, 1, 0, 8], [1, 2, 0, 8], [2, 3, 0, 8], [3, 0, 0, 8]]);
  for (const [i, m] of run.trace.entries()) {
    assert.ok(m.recvTime > m.sendTime, `message ${i} received after it was sent`);
    if (i > 0) assert.ok(m.sendTime >= run.trace[i - 1].recvTime, "each hop leaves after the previous one arrived");
  }
  assert.ok(Math.abs(run.elapsedMs / 1000 - run.trace[3].recvTime) < 1e-15);
  for (let r = 0; r < 4; r++) {   // each rank's spans tile its time: no overlap, sends of 8 B
    const mine = run.spans.filter((s) => s.rank === r);
    for (let i = 1; i < mine.length; i++) assert.ok(mine[i].start >= mine[i - 1].end);
    assert.ok(mine.some((s) => s.kind === "send" && s.bytes === 8 && s.peer === (r + 1) % 4));
  }
  assert.ok(run.spans.some((s) => s.kind === "wait" && s.rank === 0 && s.peer === 3 && s.bytes === 8));
});

// Rank 1 takes 40 messages from rank 0 and 40 from rank 2, all recvs posted at once; it records the order in
// which they resolve. Per-pair FIFO: the k-th recv from a sender gets its k-th message, whatever the order.
const TWO_SENDERS = `async function main(ctx) {
  if (ctx.rank !== 1) { for (let i = 0; i < 40; i++) ctx.send(1, ctx.rank * 100 + i); return; }
  const order = [];
  const got = await Promise.all([0, 2].flatMap((s) => Array.from({ length: 40 }, () => ctx.recv(s).then((v) => { order.push(v); return v; }))));
  return { got, order };
}`;

test("seeded delivery: per-pair FIFO always, any order across pairs, the same order for the same seed", async () => {
  const orders = new Set();
  for (const seed of [1, 2, 3, 4, 5]) {
    const run = await runLocal(TWO_SENDERS, { ranks: 3, delivery: { seed } });
    assert.equal(run.status, "ok");
    const { got, order } = run.results[1];
    assert.deepEqual(got, [...Array(40).keys(), ...Array.from({ length: 40 }, (_, i) => 200 + i)]);
    for (const s of [0, 200]) {
      const fromS = order.filter((v) => v >= s && v < s + 100);
      assert.deepEqual(fromS, [...fromS].sort((a, b) => a - b), "one sender's messages resolve in order");
    }
    orders.add(JSON.stringify(order));
    const again = await runLocal(TWO_SENDERS, { ranks: 3, delivery: { seed } });
    assert.deepEqual(again.results, run.results, `seed ${seed} replays exactly`);
    assert.deepEqual(again.trace, run.trace);
  }
  assert.ok(orders.size >= 4, `5 seeds gave only ${orders.size} interleavings`);
  const natural = await runLocal(TWO_SENDERS, { ranks: 3 });
  const { order } = natural.results[1];
  assert.ok(order.slice(0, 40).every((v) => v < 100), "without a seed: the oldest message first");
});

test("synchronous sends: an awaited send completes when the receiver takes the message", async () => {
  const code = `async function main(ctx) {
    if (ctx.rank === 0) { await ctx.send(1, "hi"); ctx.log("sent at", ctx.now()); return ctx.now(); }
    await ctx.recv(2);
    const t = ctx.now();
    await ctx.recv(0);
    return t;
  }`;
  const buffered = await runLocal(code.replace("await ctx.recv(2);", ""), { ranks: 2 });
  assert.equal(buffered.status, "ok");
  assert.ok(buffered.results[0] < buffered.trace[0].recvTime * 1000, "buffered: the send returns before it is received");
  const sync = await runLocal(code.replace("await ctx.recv(2);", ""), { ranks: 2, sendMode: "sync" });
  assert.equal(sync.status, "ok");
  assert.ok(sync.results[0] >= sync.trace[0].recvTime * 1000 - 1e-9, "sync: it returns once rank 1 has taken it");
  // Rank 1 first waits for rank 2, which waits for rank 0, which waits in its send for rank 1.
  const three = code.replace("if (ctx.rank === 0)", "if (ctx.rank === 2) return await ctx.recv(0);\n    if (ctx.rank === 0)");
  const stuck = await runLocal(three, { ranks: 3, sendMode: "sync" });
  assert.equal(stuck.status, "deadlock");
  assert.equal(stuck.deadlock.message, "rank 0 waits in send for rank 1, rank 1 waits for rank 2, rank 2 waits for rank 0");
});

test("sync mode rejects send-then-receive that relies on buffering, and accepts nonblocking sends", async () => {
  const exchange = (awaitSend) => `async function main(ctx) {
    const other = 1 - ctx.rank;
    ${awaitSend ? "await " : ""}ctx.send(other, ctx.rank);
    return await ctx.recv(other);
  }`;
  for (const seed of [1, 2, 3]) {
    for (const sendMode of ["buffered", "sync"]) {
      const run = await runLocal(exchange(false), { ranks: 2, sendMode, delivery: { seed } });
      assert.deepEqual([run.status, run.results], ["ok", [1, 0]], `${sendMode}: a nonblocking send`);
    }
    assert.equal((await runLocal(exchange(true), { ranks: 2, delivery: { seed } })).status, "ok", "buffered: returns at once");
    const run = await runLocal(exchange(true), { ranks: 2, sendMode: "sync", delivery: { seed } });
    assert.equal(run.status, "deadlock");
    assert.deepEqual(run.deadlock.cycle, [0, 1]);
    assert.equal(run.deadlock.message, "rank 0 waits in send for rank 1, rank 1 waits in send for rank 0");
  }
});

test("a rank suspended on a promise that nothing of the run can resolve is a deadlock, found at once", async () => {
  // The judge sees every message, timer and barrier of the run; a Worker cannot tell such a rank from a slow one.
  const started = performance.now();
  const run = await runLocal("async function main(ctx) { await new Promise(() => {}); }", { ranks: 2, timeoutMs: 60000 });
  assert.equal(run.status, "deadlock");
  assert.equal(run.deadlock.message,
    "ranks 0, 1 are suspended on a promise that no message, send, barrier or timer of this run can resolve");
  assert.ok(performance.now() - started < 5000, "found without waiting for the watchdog");
});

test("when the watchdog stops a ping-pong, the trace holds every message: the ranks' send counts differ by at most one", async () => {
  const forever = `async function main(ctx) {
    for (;;) { ctx.send(1 - ctx.rank, 0); await ctx.recv(1 - ctx.rank); }
  }`;
  const run = await runLocal(forever, { ranks: 2, timeoutMs: 150, delivery: { seed: 1 } });
  assert.equal(run.status, "timeout");
  assert.match(run.timeout.message, /^Stopped by the watchdog after 150 ms: ranks? [\d, ]+ (was|were) still running/);
  // Each rank's k-th send follows its own k − 1 receives.
  const sent = [0, 1].map((r) => run.trace.filter((m) => m.src === r).length);
  assert.ok(Math.abs(sent[0] - sent[1]) <= 1 && Math.min(...sent) >= 2, `sends per rank: ${sent}`);
});

test("virtual timers: a rank sleeps exactly what its timers add up to; the caller's input object is not touched", async () => {
  const code = `async function main(ctx) {
  ctx.input.list.push(ctx.rank);
  const t0 = ctx.now();
  await new Promise((resolve) => setTimeout(resolve, 2.5));
  let ticks = 0;
  await new Promise((resolve) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve(); } }, 1); });
  return ctx.now() - t0;
}`;
  const shared = { list: [] };
  const run = await runLocal(code, { ranks: 3, inputs: [shared, shared, shared] });
  assert.equal(run.status, "ok");
  for (const slept of run.results) assert.ok(slept >= 5.5 && slept < 5.6, `virtual sleep of 2.5 + 3 × 1 ms, got ${slept}`);
  assert.deepEqual(shared.list, [], "each rank pushed to its own copy");
});

test("LocalCluster's size must be a positive integer; a terminated cluster says so", async () => {
  assert.throws(() => new LocalCluster(0), /size must be a positive integer/);
  const cluster = new LocalCluster(2);
  cluster.terminate();
  await assert.rejects(cluster.ready(), /terminated/);
  await assert.rejects(cluster.run(RING), /terminated/);
});

test("recvAny: the order across senders varies with the seed, and the same seed gives the same order", async () => {
  const orders = new Set();
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const run = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed } });
    assert.equal(run.status, "ok");
    orders.add(run.results[0].map(([from]) => from).join(""));
  }
  assert.ok(orders.size > 1, "different seeds interleave the senders differently");
  const a = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed: 3 } });
  const b = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed: 3 } });
  assert.deepEqual(a.results[0], b.results[0], "the same seed, the same order");
});

test("probe: the delivery order decides after how many polls the message shows up; a seed replays the same polls", async () => {
  const pollCounts = new Set();
  for (const delivery of [null, { seed: 1 }, { seed: 2 }, { seed: 3 }, { seed: 4 }, { seed: 5 }]) {
    const run = await runLocal(PROBE, { ranks: 3, delivery });
    assert.equal(run.status, "ok", JSON.stringify(run.error ?? run.deadlock));
    pollCounts.add(run.results[0].polls);
    if (delivery) {
      const again = await runLocal(PROBE, { ranks: 3, delivery });
      assert.deepEqual(again.results, run.results, `seed ${delivery.seed}: the same polls, the same answers`);
    }
  }
  assert.ok(pollCounts.size > 1, `polls: ${[...pollCounts]}`);
});
