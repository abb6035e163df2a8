// The Worker cluster's failure injection, in real Chromium: cluster.kill(rank) terminates a Worker mid-run and tells
// nobody; with a heartbeat the run notices the silence and ends "failed", naming the rank, no sooner than the
// timeout; the next run on the same cluster gets a fresh Worker for that rank, wired to the others. Ranks that are
// blocked or sleeping still beat, so a slow run is never declared dead; without a heartbeat nothing changes.
//   node --test tests/e2e/cluster_failure.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openClusterFixture } from "./cluster_page.mjs";

const LIMIT = { timeout: 60_000 };
let fx;
before(async () => { fx = await openClusterFixture(); });
after(async () => { await fx?.close(); });

// A ring that passes a counter round and round, `laps` times (a tick of 5 ms per hop), then every rank returns it.
const RING = (laps) => `
async function main(ctx) {
  const next = (ctx.rank + 1) % ctx.size, prev = (ctx.rank - 1 + ctx.size) % ctx.size;
  let value = 0;
  for (let lap = 0; lap < ${laps}; lap++) {
    if (ctx.rank === 0) { ctx.send(next, value + 1); value = await ctx.recv(prev); }
    else { value = await ctx.recv(prev); await new Promise((r) => setTimeout(r, 5)); ctx.send(next, value + 1); }
  }
  return value;
}`;

const HEARTBEAT = { periodMs: 50, timeoutMs: 400 };

describe("failure injection", () => {
  test("a killed Worker is detected by its missing heartbeats, named, and replaced for the next run", LIMIT, async () => {
    const failed = await fx.run(4, RING(100000), { heartbeat: HEARTBEAT, kill: { rank: 2, afterMs: 300 }, timeoutMs: 20000 });
    assert.equal(failed.status, "failed");
    assert.equal(failed.failed.rank, 2);
    assert.equal(failed.failed.timeoutMs, 400);
    const silence = failed.failed.detectedAt - failed.failed.lastBeat;
    assert.ok(silence >= 0.4 && silence < 1.5, `declared dead after ${silence} s of silence`);
    assert.match(failed.failed.message, /rank 2 stopped sending heartbeats: nothing from its Worker for 400 ms/);
    assert.ok(failed.failed.lastBeat > 0.2, `last heard at ${failed.failed.lastBeat} s (killed at about 0.3 s)`);

    const next = await fx.run(4, RING(5), { heartbeat: HEARTBEAT });   // the same cluster, rank 2 a fresh Worker
    assert.equal(next.status, "ok");
    assert.deepEqual(next.results, [20, 17, 18, 19]);
    assert.ok(next.trace.some((m) => m.src === 2 && m.dst === 3) && next.trace.some((m) => m.src === 1 && m.dst === 2));
    assert.deepEqual(fx.consoleErrors, []);
  });

  test("blocked and sleeping ranks still beat: a slow run is not declared dead", LIMIT, async () => {
    const slow = await fx.run(3, `
async function main(ctx) {
  if (ctx.rank === 0) { await new Promise((r) => setTimeout(r, 1200)); ctx.send(1, "late"); ctx.send(2, "late"); return "slept"; }
  return await ctx.recv(0);
}`, { heartbeat: HEARTBEAT });
    assert.equal(slow.status, "ok");
    assert.deepEqual(slow.results, ["slept", "late", "late"]);
    assert.equal(slow.failed, null);
  });

  test("progress with flush: true reaches the page at once, even from a rank that never yields again", LIMIT, async () => {
    const spun = await fx.run(2, `
async function main(ctx) {
  if (ctx.rank === 1) return "idle";
  ctx.progress({ kind: "checkpoint", step: 1 }, { flush: true });
  ctx.progress({ kind: "batched" });
  for (;;) {}
}`, { stallMs: 600, timeoutMs: 20000 });
    assert.equal(spun.status, "timeout");
    assert.deepEqual(spun.progress[0], [{ kind: "checkpoint", step: 1 }], "the batched value never left the spinning rank");
  });

  test("a kill without a heartbeat goes unnoticed until the watchdog; bad heartbeat options are refused", LIMIT, async () => {
    const silent = await fx.run(3, RING(100000), { kill: { rank: 1, afterMs: 200 }, stallMs: 800, timeoutMs: 20000 });
    assert.equal(silent.status, "timeout");
    assert.equal(silent.failed, null);
    const again = await fx.run(3, RING(3));
    assert.equal(again.status, "ok");
    await assert.rejects(fx.run(2, RING(1), { heartbeat: { periodMs: 100, timeoutMs: 50 } }), /heartbeat must be null or \{ periodMs, timeoutMs \}/);
  });
});
