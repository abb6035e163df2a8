// The course's ring over messages (web/programs/ring.js) on the judge cluster: reduce-scatter, all-gather and
// all-reduce against the closed-form sum, for group sizes p = 1 … 7 and lengths n that p does not divide (and n < p,
// where some chunks are empty), over all ranks and over a subset listed out of rank order (a ring rebuilt over
// survivors). The messages are counted against 2(p − 1) per member and their values against the chunk rule
// n = p·⌊n/p⌋ + (n mod p), written out here by hand.
//   node --test tests/web/ring.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import * as ring from "../../web/programs/ring.js";
import { runLocal } from "../../web/cluster/local_cluster.js";

// Rank r contributes x_r[j] = (r + 1)·(j + 1) + 1/(r + 2) — distinct per rank and element, exact sums checked to 1e-9.
// Σ over the members m of x_m[j] = (j + 1)·Σ(m + 1) + Σ 1/(m + 2).
const MAIN = `async function main(ctx) {
  const { op, members, n, wire } = ctx.input;
  if (!members.includes(ctx.rank)) return null;
  const buf = Float64Array.from({ length: n }, (_, j) => (ctx.rank + 1) * (j + 1) + 1 / (ctx.rank + 2));
  if (op === "all-gather") {   // member i starts with only its own chunk: its values, the rest zero
    const i = members.indexOf(ctx.rank), starts = chunkStarts(n, members.length);
    buf.fill(0, 0, starts[i]).fill(0, starts[i + 1]);
    return Array.from(await ringAllGather(ctx, members, buf, { tag: op, wire }));
  }
  const f = op === "reduce-scatter" ? ringReduceScatter : ringAllReduce;
  return Array.from(await f(ctx, members, buf, { tag: op, wire }));
}`;
const program = [...Object.values(ring), MAIN].map(String).join("\n\n");

const sumAt = (members, j) => members.reduce((s, m) => s + (m + 1) * (j + 1) + 1 / (m + 2), 0);
const valueOf = (rank, j) => (rank + 1) * (j + 1) + 1 / (rank + 2);
// Chunk i of n over p, by hand: ⌊n/p⌋ values, one more for the first n mod p chunks.
const chunkBounds = (n, p, i) => {
  const base = Math.floor(n / p), extra = n % p;
  const begin = i * base + Math.min(i, extra);
  return [begin, begin + base + (i < extra ? 1 : 0)];
};
const near = (a, b) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

async function run(op, ranks, members, n, wire = "fp64") {
  const result = await runLocal(program, { ranks, inputs: Array.from({ length: ranks }, () => ({ op, members, n, wire })) });
  assert.equal(result.status, "ok", `${op} p=${members.length} n=${n}: ${result.error?.message ?? result.status}`);
  return result;
}

const CASES = [];
for (const p of [1, 2, 3, 4, 5, 7]) for (const n of [1, 2, p + 1, 3 * p + 2, 100]) CASES.push({ p, n });

test("the chunk rule: the first n mod p chunks one value larger, chunks tiling [0, n)", () => {
  for (const { p, n } of CASES) {
    const starts = ring.chunkStarts(n, p);
    assert.equal(starts.length, p + 1);
    for (let i = 0; i < p; i++) assert.deepEqual([starts[i], starts[i + 1]], chunkBounds(n, p, i), `n=${n} p=${p} chunk ${i}`);
  }
  assert.deepEqual(ring.shardSizes(10, 4), [3, 3, 2, 2]);
  assert.deepEqual(ring.shardSizes(2, 4), [1, 1, 0, 0]);
});

test("all-reduce: every member ends with the closed-form sum; 2(p − 1) messages each, 2(p − 1)/p·n values", async () => {
  for (const { p, n } of CASES) {
    const members = Array.from({ length: p }, (_, r) => r);
    const { results, trace } = await run("all-reduce", p, members, n);
    for (const r of members) {
      for (let j = 0; j < n; j++) assert.ok(near(results[r][j], sumAt(members, j)), `p=${p} n=${n} rank ${r} [${j}]`);
      const sent = trace.filter((m) => m.src === r);
      assert.equal(sent.length, 2 * (p - 1), `p=${p} n=${n} rank ${r}: messages`);
      assert.ok(sent.every((m) => m.dst === (r + 1) % p), "only to the next member");
      // Each chunk but the member's own (reduce-scatter) and but the one after it (all-gather): n minus two chunks.
      const own = chunkBounds(n, p, r), after = chunkBounds(n, p, (r + 1) % p);
      const values = p === 1 ? 0 : 2 * n - (own[1] - own[0]) - (after[1] - after[0]);
      assert.equal(sent.reduce((s, m) => s + m.bytes, 0), 8 * values, `p=${p} n=${n} rank ${r}: bytes`);
    }
  }
});

test("reduce-scatter: member i holds the sum of chunk i (the core's and MPI_Reduce_scatter_block's numbering)", async () => {
  for (const { p, n } of CASES) {
    const members = Array.from({ length: p }, (_, r) => r);
    const { results, trace } = await run("reduce-scatter", p, members, n);
    for (const r of members) {
      const [begin, end] = chunkBounds(n, p, r);
      for (let j = begin; j < end; j++) assert.ok(near(results[r][j], sumAt(members, j)), `p=${p} n=${n} rank ${r} [${j}]`);
      assert.equal(trace.filter((m) => m.src === r).length, p - 1);
    }
  }
});

test("all-gather: from each member's own chunk, every member ends with all of them", async () => {
  for (const { p, n } of CASES) {
    const members = Array.from({ length: p }, (_, r) => r);
    const { results } = await run("all-gather", p, members, n);
    for (const r of members) {
      for (let i = 0; i < p; i++) {
        const [begin, end] = chunkBounds(n, p, i);
        for (let j = begin; j < end; j++) assert.equal(results[r][j], valueOf(i, j), `p=${p} n=${n} rank ${r} chunk ${i}`);
      }
    }
  }
});

test("a ring over some ranks, listed out of order: only the members talk, each to the next in the list", async () => {
  const members = [5, 0, 3, 6], n = 11;
  const { results, trace } = await run("all-reduce", 8, members, n);
  for (const r of [1, 2, 4, 7]) assert.equal(results[r], null);
  for (const r of members) for (let j = 0; j < n; j++) assert.ok(near(results[r][j], sumAt(members, j)));
  for (const m of trace) assert.equal(m.dst, members[(members.indexOf(m.src) + 1) % members.length]);
});

test("wire fp32: chunks travel as Float32Array (4 bytes a value), sums within fp32 rounding", async () => {
  const members = [0, 1, 2], n = 10;
  const { results, trace } = await run("all-reduce", 3, members, n, "fp32");
  // Member 0 sends chunk 2 then chunk 1 (reduce-scatter), chunk 0 then chunk 2 (all-gather): sizes 3, 3, 4, 3.
  assert.equal(trace.filter((m) => m.src === 0).reduce((s, m) => s + m.bytes, 0), 4 * (3 + 3 + 4 + 3));
  for (const r of members) for (let j = 0; j < n; j++) assert.ok(Math.abs(results[r][j] - sumAt(members, j)) <= 1e-5 * sumAt(members, j));
});
