// step_session.test.mjs — the step-through's scheduler on real Workers in Chromium (cluster/step_session.js):
// every rank pauses at its first statement; stepping one rank moves only it; "run to the next send/recv" stops
// before one; a message sent and not yet received is in flight; the frames of two sessions with the same moves
// and seed are the same; a deadlock ends with its wait-for cycle; an endless loop is stopped.
import test, { after, before } from "node:test";
import assert from "node:assert/strict";
import { openClusterFixture } from "./cluster_page.mjs";

let fx;
before(async () => { fx = await openClusterFixture(); });
after(async () => { await fx?.close(); });

// Runs `moves` (["all"], [0] = step rank 0, ["comm"], ["barrier"], ["continue"]) in a session of `code` on the page.
const session = (size, code, moves, options = {}) => fx.page.evaluate(async ([size, code, moves, options]) => {
  const { StepSession, inFlightAt } = await import("/web/cluster/step_session.js");
  const { ClusterPool } = await import("/web/cluster/cluster_pool.js");
  const clusters = window.stepPool ??= new ClusterPool();
  const s = new StepSession({ clusters, ranks: size, code, ...options });
  await s.start();
  const inFlight = [];
  for (const m of moves) {
    if (m === "all") await s.stepAll();
    else if (m === "comm" || m === "barrier") await s.runTo(m);
    else if (m === "continue") await s.runTo(null);
    else if (m === "stop") { s.stop(); await s.outcome; }
    else await s.stepRank(m);
    inFlight.push(inFlightAt(s.messages, s.last).map(({ src, dst, tag, preview }) => ({ src, dst, tag, preview })));
  }
  if (moves.at(-1) === "continue") await s.outcome;
  return { frames: s.frames.map((f) => ({ note: f.note, ranks: f.ranks.map(({ state, line, vars }) => ({ state, line, vars })) })),
           inFlight, status: s.result?.status ?? null, deadlock: s.result?.deadlock?.message ?? null,
           results: s.result?.results ?? null, messages: s.messages.map(({ src, dst, value }) => ({ src, dst, value })) };
}, [size, code, moves, options]);

const RING = `async function main(ctx) {
  const { rank, size } = ctx;
  let value = rank * 10;
  ctx.send((rank + 1) % size, value);
  const got = await ctx.recv((rank + size - 1) % size);
  value += got;
  return value;
}`;

test("a session starts with every rank paused at its first statement; one rank steps alone", async () => {
  const out = await session(3, RING, [1, 1]);
  assert.deepEqual(out.frames[0].ranks.map((x) => [x.state, x.line]), [["paused", 2], ["paused", 2], ["paused", 2]]);
  assert.deepEqual(out.frames[2].ranks.map((x) => x.line), [2, 4, 2]);
  assert.deepEqual(out.frames[2].ranks[1].vars.map((v) => `${v.name}=${v.value}`), ["rank=1", "size=3", "value=10"]);
});

test("run to the next send/recv stops before it; the sent message is in flight until received", async () => {
  const out = await session(2, RING, ["comm", 0, 0]);
  assert.deepEqual(out.frames.at(-3).ranks.map((x) => x.line), [4, 4], "both before their send");
  assert.deepEqual(out.inFlight[1], [{ src: 0, dst: 1, tag: 0, preview: "0" }]);
  assert.deepEqual(out.frames.at(-1).ranks.map((x) => [x.state, x.line]), [["blocked", 5], ["paused", 4]]);
});

test("Continue runs to the end with the results Run gives; the same seed gives the same frames", async () => {
  const a = await session(4, RING, ["continue"], { seed: 7 });
  const b = await session(4, RING, ["continue"], { seed: 7 });
  assert.equal(a.status, "ok");
  assert.deepEqual(a.results, [30, 10, 30, 50]);
  assert.deepEqual(a.frames, b.frames);
  assert.deepEqual(a.messages, b.messages);
  assert.deepEqual(a.messages.map((m) => Number(m.value)).sort((x, y) => x - y), [0, 10, 20, 30]);
});

test("a deadlock in step mode is reported with its wait-for cycle", async () => {
  const out = await session(2, `async function main(ctx) {
  const peer = 1 - ctx.rank;
  const got = await ctx.recv(peer);
  ctx.send(peer, got);
}`, ["continue"]);
  assert.equal(out.status, "deadlock");
  assert.match(out.deadlock, /rank 0 waits.*rank 1/);
});

test("an endless loop in step mode stays stoppable", async () => {
  const out = await session(2, `async function main(ctx) {
  let n = 0;
  while (true) n++;
}`, [0, "all", "stop"]);
  assert.equal(out.status, "stopped");
  assert.equal(out.frames[1].ranks[0].line, 3);
});
