// local_cluster.test.mjs — the judge cluster (web/cluster/local_cluster.js): the Worker cluster's ctx and
// RunResult in one thread, seeded delivery orders that keep per-pair FIFO, synchronous sends that expose
// send-then-receive deadlocks, WaitForGraph's deadlock messages, errors at the learner's line, and a watchdog.
//   node --test tests/web/local_cluster.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { LocalCluster, runLocal } from "../../web/cluster/local_cluster.js";
import { PROBE } from "./probe_program.mjs";

const RING = `async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  if (ctx.rank === 0) { ctx.send(next, ctx.input); return await ctx.recv(prev); }
  ctx.send(next, (await ctx.recv(prev)) + 1);
}`;

test("a RunResult of the Worker cluster's shape, with an exact virtual clock", async () => {
  const run = await runLocal(RING, { ranks: 4, inputs: [10, 0, 0, 0] });
  assert.deepEqual(Object.keys(run).sort(),
    ["clock", "deadlock", "elapsedMs", "error", "logs", "progress", "results", "spans", "status", "stopped", "timeout", "trace"]);
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

test("deadlocks are found at once and explained by WaitForGraph (cycles, finished ranks, tags, barriers)", async () => {
  const cases = [
    ["async function main(ctx) { return await ctx.recv((ctx.rank + 1) % ctx.size); }", 3,
      "rank 0 waits for rank 1, rank 1 waits for rank 2, rank 2 waits for rank 0"],
    ["async function main(ctx) { if (ctx.rank === 1) return await ctx.recv(0); }", 2, "rank 1 waits for rank 0, which has finished"],
    [`async function main(ctx) {
      if (ctx.rank === 0) ctx.send(1, 5, { tag: 2 }); else return await ctx.recv(0, { tag: 1 });
    }`, 2, "rank 1 waits for rank 0 (tag 1), which has finished; rank 1 waits for tag 1 but holds an unreceived message from rank 0 with tag 2"],
    ["async function main(ctx) { if (ctx.rank > 0) await ctx.barrier(); }", 3,
      "rank 1 waits in barrier for rank 0, which has finished"],
    ["async function main(ctx) { await new Promise(() => {}); }", 2,
      "ranks 0, 1 are suspended on a promise that no message, send, barrier or timer of this run can resolve"],
  ];
  for (const [code, ranks, message] of cases) {
    const started = performance.now();
    const run = await runLocal(code, { ranks, timeoutMs: 60000, delivery: { seed: 9 } });
    assert.equal(run.status, "deadlock", code);
    assert.equal(run.deadlock.message, message);
    assert.ok(performance.now() - started < 5000, "found without waiting for the watchdog");
  }
});

test("barriers release every rank together, under any delivery order", async () => {
  const code = `async function main(ctx) {
    const seen = [];
    for (let round = 0; round < 3; round++) {
      ctx.send((ctx.rank + 1) % ctx.size, round);
      await ctx.barrier();
      seen.push(await ctx.recv((ctx.rank - 1 + ctx.size) % ctx.size));
    }
    return seen;
  }`;
  for (const delivery of [null, { seed: 4 }, { seed: 5 }]) {
    const run = await runLocal(code, { ranks: 5, delivery });
    assert.equal(run.status, "ok");
    assert.deepEqual(run.results, Array(5).fill([0, 1, 2]));
  }
});

test("errors: the learner's line, the same words as on the Workers", async () => {
  const thrown = await runLocal(`async function main(ctx) {
  await ctx.recv(1 - ctx.rank, { tag: 9 }).catch(() => {});
  if (ctx.rank === 1) {
    ctx.send(7, 1);
  }
}`, { ranks: 2, inputs: [], delivery: null });
  // Both ranks wait for tag 9 first: a deadlock, not the error. Send first instead:
  assert.equal(thrown.status, "deadlock");
  const bad = await runLocal(`async function main(ctx) {
  if (ctx.rank === 1) {
    ctx.send(7, 1);
  }
}`, { ranks: 2 });
  assert.deepEqual(bad.error, { rank: 1, message: "RangeError: send: there is no rank 7 (ranks are 0 … 1)", line: 3, column: 9 });
  const first = await runLocal("async function main(ctx) { undefinedName(); }", { ranks: 2 });
  assert.deepEqual(first.error, { rank: 0, message: "ReferenceError: undefinedName is not defined", line: 1, column: 28 });
  const syntax = await runLocal("async function main(ctx) {\n  let x = ;\n}", { ranks: 3 });
  assert.deepEqual([syntax.status, syntax.error.rank, syntax.error.line], ["error", 0, 2]);
  assert.match(syntax.error.message, /^SyntaxError: /);
  assert.match((await runLocal("const x = 1;", { ranks: 2 })).error.message, /must define a function named main/);
  assert.match((await runLocal("const main = 3;", { ranks: 2 })).error.message, /main must be a function, .* \(it is a number\)/);
  const helper = await runLocal(`async function later() { await null; throw new Error("boom"); }
async function main(ctx) { if (ctx.rank === 1) later(); return await ctx.recv(1 - ctx.rank); }`, { ranks: 2 });
  assert.deepEqual(helper.error, { rank: 1, message: "Error: boom", line: 1, column: 44 }, "an un-awaited rejection ends the run");
  const returned = await runLocal("async function main(ctx) { return () => 1; }", { ranks: 1 });
  assert.match(returned.error.message, /main\(\) returned a value that cannot be passed to the page/);
  const unsendable = await runLocal("async function main(ctx) { ctx.send(0, () => 1); }", { ranks: 1 });
  assert.match(unsendable.error.message, /send: this value cannot be sent to another Worker/);
});

test("the watchdog stops a run that keeps going (real time), and never fires on a finished one", async () => {
  const forever = `async function main(ctx) {
    for (;;) { ctx.send(1 - ctx.rank, 0); await ctx.recv(1 - ctx.rank); }
  }`;
  const run = await runLocal(forever, { ranks: 2, timeoutMs: 150, delivery: { seed: 1 } });
  assert.equal(run.status, "timeout");
  assert.equal(run.timeout.ms, 150);
  assert.match(run.timeout.message, /^Stopped by the watchdog after 150 ms: ranks? [\d, ]+ (was|were) still running/);
  // What ran before the watchdog is the program's ping-pong: each rank's k-th send follows its own k − 1 receives, so
  // the ranks' send counts differ by at most one, every message is 0 ↔ 1, and the run kept going past one round.
  const sent = [0, 1].map((r) => run.trace.filter((m) => m.src === r && m.dst === 1 - r).length);
  assert.equal(sent[0] + sent[1], run.trace.length, "every message between ranks 0 and 1");
  assert.ok(Math.abs(sent[0] - sent[1]) <= 1 && Math.min(...sent) >= 2, `sends per rank: ${sent}`);
  assert.deepEqual(run.trace.filter((m) => m.src === 0).map((m) => m.sendOrder), [...Array(sent[0]).keys()].map((k) => 2 * k));
});

test("each rank has its own top-level variables, input copy, console and virtual timers", async () => {
  const code = `let calls = 0;
async function main(ctx) {
  calls += 1;
  ctx.input.list.push(ctx.rank);
  console.log("rank", ctx.rank, { calls });
  console.warn("careful");
  const t0 = ctx.now();
  await new Promise((resolve) => setTimeout(resolve, 2.5));
  let ticks = 0;
  await new Promise((resolve) => { const id = setInterval(() => { if (++ticks === 3) { clearInterval(id); resolve(); } }, 1); });
  return { calls, list: ctx.input.list, slept: ctx.now() - t0 };
}`;
  const shared = { list: [] };
  const run = await runLocal(code, { ranks: 3, inputs: [shared, shared, shared] });
  assert.equal(run.status, "ok");
  run.results.forEach((r, rank) => {
    assert.equal(r.calls, 1);
    assert.deepEqual(r.list, [rank]);
    assert.ok(r.slept >= 5.5 && r.slept < 5.6, `virtual sleep of 2.5 + 3 × 1 ms, got ${r.slept}`);
  });
  assert.deepEqual(shared.list, [], "the caller's input is not touched");
  assert.deepEqual(run.logs[2], ["rank 2 { calls: 1 }", "warning: careful"]);
});

test("progress values reach the page as copies; Stop (an AbortSignal) ends a run as stopped", async () => {
  const seen = [];
  const run = await runLocal(`async function main(ctx) {
    const point = { step: 0, loss: 2.5 };
    ctx.progress(point);
    point.step = 9;
    ctx.progress({ step: 1, loss: 1.25 });
  }`, { ranks: 2, onProgress: (rank, value) => seen.push([rank, value.step]) });
  assert.deepEqual(run.progress, Array(2).fill([{ step: 0, loss: 2.5 }, { step: 1, loss: 1.25 }]));
  assert.deepEqual(seen.sort(), [[0, 0], [0, 1], [1, 0], [1, 1]]);
  const forever = "async function main(ctx) { for (;;) { ctx.send(1 - ctx.rank, 0); await ctx.recv(1 - ctx.rank); } }";
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const stopped = await runLocal(forever, { ranks: 2, timeoutMs: Infinity, signal: controller.signal });
  assert.deepEqual([stopped.status, stopped.stopped], ["stopped", { message: "Stopped." }]);
  const before = await runLocal(forever, { ranks: 2, signal: AbortSignal.abort() });
  assert.equal(before.status, "stopped");
});

test("a composed program (learnerLines): an error in the course's part is reported at the learner's calling line", async () => {
  const learner = `function helper(x) {
  return course(x + 1);
}`;
  const course = `async function main(ctx) { return helper(ctx.rank); }
function course(x) { if (x > 1) throw new RangeError("x is too large"); return x; }`;
  const run = await runLocal(`${learner}\n${course}`, { ranks: 2, learnerLines: 3 });
  assert.deepEqual(run.error, { rank: 1, line: 2, column: 10,
    message: "RangeError: x is too large — raised inside the course's code by your call at line 2" });
});

test("a rank's log keeps at most 1000 lines and says how many it dropped", async () => {
  const run = await runLocal("async function main(ctx) { for (let i = 0; i < 1005; i++) ctx.log(i); }", { ranks: 1 });
  assert.equal(run.logs[0].length, 1001);
  assert.equal(run.logs[0].at(-1), "… 5 more lines not shown (at most 1000 per rank)");
});

test("messages are copies (move: true hands the buffer over), sized as the Workers size them", async () => {
  const code = `async function main(ctx) {
    if (ctx.rank === 0) {
      const a = new Float64Array([1, 2, 3, 4]);
      ctx.send(1, a.subarray(1, 3));
      a[1] = 99;
      const b = new Float64Array(5);
      ctx.send(1, b, { move: true });
      ctx.send(1, { k: "v" });
      return b.length;
    }
    const view = await ctx.recv(0), moved = await ctx.recv(0), obj = await ctx.recv(0);
    return [Array.from(view), view.buffer.byteLength, moved.length, obj];
  }`;
  const run = await runLocal(code, { ranks: 2, delivery: { seed: 2 } });
  assert.deepEqual(run.results, [0, [[2, 3], 16, 5, { k: "v" }]]);
  assert.deepEqual(run.trace.map((m) => m.bytes), [16, 40, 9]);
});

test("misuse is a readable error; one run at a time", async () => {
  const cluster = new LocalCluster(2);
  await assert.rejects(cluster.run(RING, { sendMode: "eager" }), /sendMode must be "buffered" or "sync"/);
  await assert.rejects(cluster.run(RING, { delivery: { seed: "x" } }), /delivery must be null or \{ seed \}/);
  await assert.rejects(cluster.run(RING, { inputs: [() => 1] }), /an input cannot be sent to a Worker/);
  await assert.rejects(cluster.run(42), /code must be a string/);
  const first = cluster.run(RING, { inputs: [1, 0] });
  await assert.rejects(cluster.run(RING), /another run is still in progress/);
  assert.equal((await first).status, "ok");
  assert.throws(() => new LocalCluster(0), /size must be a positive integer/);
  cluster.terminate();
  await assert.rejects(cluster.ready(), /terminated/);
});

// A server that takes 3 pushes from each of its workers with recvAny: per-sender order always, the interleaving
// of senders up to the delivery order, and the source named with each message.
const ANY_SERVER = `async function main(ctx) {
  if (ctx.rank !== 0) { for (let i = 0; i < 3; i++) ctx.send(0, ctx.rank * 10 + i, { tag: "push" }); return; }
  const got = [];
  for (let i = 0; i < 3 * (ctx.size - 1); i++) {
    const { from, data } = await ctx.recvAny({ tag: "push" });
    got.push([from, data]);
  }
  return got;
}`;

test("recvAny: any sender's message, with its source; per-sender order kept; the order across senders varies with the seed", async () => {
  const orders = new Set();
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const run = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed } });
    assert.equal(run.status, "ok");
    const got = run.results[0];
    assert.equal(got.length, 9);
    for (const [from, data] of got) assert.equal(Math.floor(data / 10), from, "the source is the sender");
    for (const src of [1, 2, 3]) {
      assert.deepEqual(got.filter(([from]) => from === src).map(([, d]) => d), [src * 10, src * 10 + 1, src * 10 + 2]);
    }
    orders.add(got.map(([from]) => from).join(""));
  }
  assert.ok(orders.size > 1, "different seeds interleave the senders differently");
  const a = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed: 3 } });
  const b = await runLocal(ANY_SERVER, { ranks: 4, delivery: { seed: 3 } });
  assert.deepEqual(a.results[0], b.results[0], "the same seed, the same order");
});

test("recvAny and recv share messages in the order they were posted; tags are respected", async () => {
  const code = `async function main(ctx) {
    if (ctx.rank === 1) { ctx.send(0, "a"); ctx.send(0, "b"); ctx.send(0, "x", { tag: 5 }); return; }
    if (ctx.rank === 2) { ctx.send(0, "c"); return; }
    const first = ctx.recv(1), any = ctx.recvAny(), tagged = ctx.recvAny({ tag: 5 });
    const [f, a, t] = await Promise.all([first, any, tagged]);
    const rest = await ctx.recvAny();
    return { f, a, t, rest };
  }`;
  for (const seed of [1, 2, 3, 4]) {
    const run = await runLocal(code, { ranks: 3, delivery: { seed } });
    assert.equal(run.status, "ok");
    const { f, a, t, rest } = run.results[0];
    assert.equal(f, "a", "the older recv(1) takes rank 1's first message");
    assert.ok((a.from === 1 && a.data === "b") || (a.from === 2 && a.data === "c"), JSON.stringify(a));
    assert.deepEqual(t, { from: 1, data: "x" });
    assert.deepEqual([a.data, rest.data].sort(), ["b", "c"], "the other untagged message comes next");
  }
});

test("recvAny deadlocks are explained: every other rank finished, or a cycle through the any-wait", async () => {
  const finished = await runLocal(`async function main(ctx) {
    if (ctx.rank === 0) { await ctx.recvAny(); return await ctx.recvAny(); }
    ctx.send(0, 1);
  }`, { ranks: 2, timeoutMs: 60000 });
  assert.equal(finished.status, "deadlock");
  assert.equal(finished.deadlock.message, "rank 0 waits for a message from any rank, and every other rank has finished");
  const cycle = await runLocal(`async function main(ctx) {
    if (ctx.rank === 0) return await ctx.recvAny({ tag: 2 });
    return await ctx.recv(0);
  }`, { ranks: 2, timeoutMs: 60000 });
  assert.equal(cycle.status, "deadlock");
  assert.equal(cycle.deadlock.message, "rank 0 waits for a message from any rank (tag 2), rank 1 waits for rank 0");
  const tagged = await runLocal(`async function main(ctx) {
    if (ctx.rank === 0) return await ctx.recvAny({ tag: 1 });
    ctx.send(0, 7, { tag: 2 });
  }`, { ranks: 3, timeoutMs: 60000 });
  assert.equal(tagged.status, "deadlock");
  assert.match(tagged.deadlock.message, /waits for tag 1 but holds an unreceived message from rank [12] with tag 2/);
  const bad = await runLocal("async function main(ctx) { await ctx.recvAny({ tag: 1.5 }); }", { ranks: 1 });
  assert.equal(bad.status, "error");
  assert.match(bad.error.message, /recvAny: tag must be an integer or a string/);
});

test("probe: a look at the oldest arrived message (source, tag, bytes) that takes nothing and never waits", async () => {
  const pollCounts = new Set();
  for (const delivery of [null, { seed: 1 }, { seed: 2 }, { seed: 3 }, { seed: 4 }, { seed: 5 }]) {
    const run = await runLocal(PROBE, { ranks: 3, delivery });
    assert.equal(run.status, "ok", JSON.stringify(run.error ?? run.deadlock));
    const { polls, seen, again, x, gone, untagged, a } = run.results[0];
    assert.deepEqual(seen, { from: 1, tag: 5, bytes: run.trace.find((m) => m.tag === 5).bytes });
    assert.deepEqual(again, seen, "a probe leaves the message for recv");
    assert.deepEqual([x, gone, a], ["x", null, "a"]);
    assert.deepEqual(untagged, { from: 1, tag: 0, bytes: run.trace.find((m) => m.tag === 0).bytes });
    assert.equal(run.results[2], null, "a probe for a message that never comes answers null");
    pollCounts.add(polls);
    if (delivery) {
      const again2 = await runLocal(PROBE, { ranks: 3, delivery });
      assert.deepEqual(again2.results, run.results, `seed ${delivery.seed}: the same polls, the same answers`);
    }
  }
  assert.ok(pollCounts.size > 1, `the delivery order decides when the message shows up (polls: ${[...pollCounts]})`);
});

test("probe: bad arguments are named; a rank that polls for ever is running, not deadlocked", async () => {
  const rank = await runLocal("async function main(ctx) { await ctx.probe(7); }", { ranks: 2 });
  assert.match(rank.error.message, /probe: there is no rank 7 \(ranks are 0 … 1\)/);
  const tag = await runLocal("async function main(ctx) { await ctx.probe(0, { tag: 1.5 }); }", { ranks: 1 });
  assert.match(tag.error.message, /probe: tag must be an integer or a string/);
  const forever = await runLocal("async function main(ctx) { if (ctx.rank === 0) while (!(await ctx.probe(1))); }",
    { ranks: 2, timeoutMs: 300 });
  assert.equal(forever.status, "timeout");
  assert.deepEqual(forever.timeout.running, [0]);
});
