// messages_contract.mjs — contract cases (cluster_contract.mjs) on what messages carry and in what order they are
// taken: results and trace of a ring, typed arrays copied or moved and their bytes, barriers, recvAny, probe, and
// programs that wait a lot without being deadlocked.
import assert from "node:assert/strict";
import { assertSpansTile, ok, RUN_RESULT_KEYS } from "./checks.mjs";
import { ANY_SERVER, PROBE, RING_SUM } from "./programs.mjs";

const ringSum = (p) => ({
  name: `ring sum over ${p} ranks: the RunResult's fields, results p(p+1)/2, p(p−1) messages of 8 B to the right, spans tile`,
  size: p, code: RING_SUM, options: { inputs: Array.from({ length: p }, (_, r) => r + 1) },
  check(got) {
    ok(got);
    for (const key of RUN_RESULT_KEYS) assert.ok(key in got, `RunResult.${key}`);
    assert.deepEqual(got.results, Array(p).fill(p * (p + 1) / 2));
    assert.equal(got.trace.length, p * (p - 1));
    for (const m of got.trace) {
      assert.deepEqual([m.dst, m.tag, m.bytes], [(m.src + 1) % p, 0, 8], "a number is 8 bytes");
      assert.ok(m.recvTime !== null && m.recvTime >= m.sendTime, JSON.stringify(m));
    }
    assert.ok(got.elapsedMs > 0);
    assertSpansTile(got.spans, p);
    assert.ok(got.spans.some((s) => s.kind === "send" && s.bytes === 8));
    assert.ok(got.spans.every((s) => s.kind !== "send" || s.peer === (s.rank + 1) % p));
  },
});

export const MESSAGE_CASES = [
  ringSum(4),
  {
    name: "a ping-pong of 3 rounds: the trace's sendOrder and recvOrder are each rank's program order",
    size: 2, code: `async function main(ctx) {
  const got = [];
  for (let k = 0; k < 3; k++) {
    if (ctx.rank === 0) { ctx.send(1, k); got.push(await ctx.recv(1)); }
    else { const x = await ctx.recv(0); got.push(x); ctx.send(0, x + 10); }
  }
  return got;
}`,
    check(got) {
      ok(got);
      assert.deepEqual(got.results, [[10, 11, 12], [0, 1, 2]]);
      // Rank 0 sends, receives, sends, … (its operations 0, 1, 2, …); rank 1 receives first.
      const of = (src) => got.trace.filter((m) => m.src === src).map((m) => [m.sendOrder, m.recvOrder]);
      assert.deepEqual(of(0), [[0, 0], [2, 2], [4, 4]]);
      assert.deepEqual(of(1), [[1, 1], [3, 3], [5, 5]]);
    },
  },
  {
    name: "typed arrays arrive intact and typed; send copies unless { move: true }; bytes are what the data weighs",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) {
    const f = new Float64Array([1.5, -2, Math.PI]);
    ctx.send(1, f);
    f[0] = 99;                                        // the copy was already taken
    const backing = new Int32Array([10, 20, 30, 40, 50]);
    ctx.send(1, backing.subarray(1, 4), { tag: 7 });  // a view into a larger buffer: only the view is sent
    const moved = new Uint8Array([1, 2, 3]);
    ctx.send(1, moved, { move: true });               // handed over: our array is detached
    ctx.send(1, new Uint16Array([65535, 1]).buffer, { tag: "raw" });
    ctx.send(1, { a: [1, 2], s: "hé" });
    return [f[0], moved.length];
  }
  const f = await ctx.recv(0);
  const moved = await ctx.recv(0);                    // tag 0 in order: the Uint8Array before the object
  const raw = await ctx.recv(0, { tag: "raw" });
  const view = await ctx.recv(0, { tag: 7 });
  const obj = await ctx.recv(0);
  return { f: Array.from(f), fType: f.constructor.name, view: Array.from(view), viewType: view.constructor.name,
           viewBytes: view.buffer.byteLength, moved: Array.from(moved), raw: Array.from(new Uint16Array(raw)), obj };
}`,
    check(got) {
      ok(got);
      assert.deepEqual(got.results[0], [99, 0]);
      assert.deepEqual(got.results[1], { f: [1.5, -2, Math.PI], fType: "Float64Array", view: [20, 30, 40],
        viewType: "Int32Array", viewBytes: 12, moved: [1, 2, 3], raw: [65535, 1], obj: { a: [1, 2], s: "hé" } });
      // 3 × 8, 3 × 4, 3 × 1, 2 × 2 bytes; the object as UTF-8 JSON: {"a":[1,2],"s":"hé"} is 20 characters, é is 2 bytes.
      assert.deepEqual(got.trace.map((m) => [m.tag, m.bytes]), [[0, 24], [7, 12], [0, 3], ["raw", 4], [0, 21]]);
    },
  },
  {
    name: "no false deadlock: a receive posted early, busy work, timers, self-sends and two barriers",
    size: 2, code: `const sleep = (ms) => new Promise((ok) => setTimeout(ok, ms));
function busy(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }
async function main(ctx) {
  const other = 1 - ctx.rank;
  if (ctx.rank === 0) {
    const p = ctx.recv(1);            // posted early, awaited late: rank 0 is not blocked meanwhile
    busy(100);
    ctx.send(1, "ping");
    await p;
  } else {
    const x = await ctx.recv(0);
    await sleep(60);                  // a timer will wake us: not blocked
    ctx.send(0, x + "/pong");
  }
  const [fromOther] = await Promise.all([ctx.recv(other, { tag: 1 }), sleep(30).then(() => ctx.send(other, ctx.rank, { tag: 1 }))]);
  ctx.send(ctx.rank, "me");
  const me = await ctx.recv(ctx.rank);
  const before = ctx.now();
  await ctx.barrier();
  await ctx.barrier();
  return { fromOther, me, before, after: ctx.now() };
}`,
    check(got) {
      ok(got);
      assert.deepEqual(got.results.map((r) => [r.fromOther, r.me]), [[1, "me"], [0, "me"]]);
      // Nobody leaves a barrier before everybody has entered it (one clock; the Workers' agree within 0.2 ms).
      const lastIn = Math.max(...got.results.map((r) => r.before));
      for (const r of got.results) assert.ok(r.after >= lastIn - 0.2, `${r.after} vs ${lastIn}`);
      assertSpansTile(got.spans, 2);
    },
  },
  {
    name: "barriers release every rank together, with a seeded delivery order",
    size: 4, options: { delivery: { seed: 4 } }, code: `async function main(ctx) {
  const seen = [];
  for (let round = 0; round < 3; round++) {
    ctx.send((ctx.rank + 1) % ctx.size, round);
    await ctx.barrier();
    seen.push(await ctx.recv((ctx.rank - 1 + ctx.size) % ctx.size));
  }
  return seen;
}`,
    check(got) {
      ok(got);
      assert.deepEqual(got.results, Array(4).fill([0, 1, 2]));
    },
  },
  {
    name: "recvAny: each message with its source, per-sender order kept, with a seeded delivery order",
    size: 4, options: { delivery: { seed: 3 } }, code: ANY_SERVER,
    check(got) {
      ok(got);
      const pushes = got.results[0];
      assert.equal(pushes.length, 9);
      for (const [from, data] of pushes) assert.equal(Math.floor(data / 10), from, "the source is the sender");
      for (const src of [1, 2, 3]) {
        assert.deepEqual(pushes.filter(([from]) => from === src).map(([, d]) => d), [src * 10, src * 10 + 1, src * 10 + 2]);
      }
    },
  },
  {
    name: "recvAny and recv share messages in the order they were posted; tags are respected",
    size: 3, code: `async function main(ctx) {
  if (ctx.rank === 1) { ctx.send(0, "a"); ctx.send(0, "b"); ctx.send(0, "x", { tag: 5 }); return; }
  if (ctx.rank === 2) { ctx.send(0, "c"); return; }
  const first = ctx.recv(1), any = ctx.recvAny(), tagged = ctx.recvAny({ tag: 5 });
  const [f, a, t] = await Promise.all([first, any, tagged]);
  const rest = await ctx.recvAny();
  return { f, a, t, rest };
}`,
    check(got) {
      ok(got);
      const { f, a, t, rest } = got.results[0];
      assert.equal(f, "a", "the older recv(1) takes rank 1's first message");
      assert.ok((a.from === 1 && a.data === "b") || (a.from === 2 && a.data === "c"), JSON.stringify(a));
      assert.deepEqual(t, { from: 1, data: "x" });
      assert.deepEqual([a.data, rest.data].sort(), ["b", "c"], "the other untagged message comes next");
    },
  },
  {
    name: "probe (MPI_Iprobe): source, tag and bytes of the oldest arrived message; takes nothing; null when none",
    size: 3, code: PROBE,
    check(got) {
      ok(got);
      const { polls, seen, again, x, gone, untagged, a } = got.results[0];
      // "x" is a 1-character string and "a" too: each weighs what the trace says, the same on both clusters.
      assert.deepEqual(seen, { from: 1, tag: 5, bytes: got.trace.find((m) => m.tag === 5).bytes });
      assert.deepEqual(again, seen, "a probe leaves the message for recv");
      assert.deepEqual([x, gone, a], ["x", null, "a"]);
      assert.deepEqual(untagged, { from: 1, tag: 0, bytes: got.trace.find((m) => m.tag === 0).bytes });
      assert.equal(got.results[2], null, "a probe for a message that never comes answers null");
      assert.ok(polls >= 1);
    },
  },
  {
    name: "probe: a producer sees its consumer's stop between sends, not after all of them",
    size: 2, code: `async function main(ctx) {
  if (ctx.rank === 0) {
    let sent = 0;
    while (sent < 100000 && !(await ctx.probe(1, { tag: "stop" }))) ctx.send(1, sent++);
    await ctx.recv(1, { tag: "stop" });
    ctx.send(1, sent, { tag: "end" });
    return sent;
  }
  for (let i = 0; i < 50; i++) await ctx.recv(0);
  ctx.send(0, null, { tag: "stop" });
  const sent = await ctx.recv(0, { tag: "end" });
  for (let i = 50; i < sent; i++) await ctx.recv(0);
  return sent;
}`,
    check(got) {
      ok(got);
      assert.equal(got.results[0], got.results[1]);
      assert.ok(got.results[0] >= 50 && got.results[0] < 100000, `stopped after ${got.results[0]} items`);
    },
  },
];
