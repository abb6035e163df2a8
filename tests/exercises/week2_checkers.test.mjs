// Week 2's exercises, checked in Node beyond the rules every exercise keeps (exercise_rules.test.mjs): every numeric
// answer, computed with a fake core written from the published closed forms (Thakur, Rabenseifner & Gropp 2005;
// Chan et al. 2007; nccl-tests PERFORMANCE.md), equals the exercise's oracle and the real core's answer while its
// wrongAnswer fails; every choice option's `correct` flag agrees with the claim it makes by those formulas; the code
// checkers replay solutions in the simulator and reject hand-made broken runs with a message naming the rank
// at fault. The real wasm core must be built. How the code exercises are judged as a whole (seeded
// interleavings, synchronous sends, hidden cases, every wrong program) is tests/exercises/judging.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/week2/exercises.js";
import { FASTEST_SCENARIO } from "../../lessons/week2/exercises/choose_algorithm.js";
import { chunkOf, chunkStart, explainBySubsets, programOrderTrace } from "../../web/exercise/collective_checks.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { expectFailWith, okRun } from "./run_results.mjs";
import { sourceOf } from "./course.mjs";

const byId = Object.fromEntries(exercises.map((e) => [e.id, e]));
const SEEDS = Array.from({ length: 40 }, (_, i) => 2000 + 7919 * i);

// A core function the fake does not have fails by name: an exercise that calls a new one needs its published formula here.
function namedFake(fake) {
  return new Proxy(fake, { get: (target, key) => (key in target || typeof key !== "string" ? target[key] : () => {
    throw new Error(`the fake core of tests/exercises/week2_checkers.test.mjs has no ${key}(): add its published formula there`);
  }) });
}

// ---- a fake core: the published closed forms, written out independently of the C++ -------------------------
const log2 = Math.log2, clog2 = (p) => Math.ceil(Math.log2(p));
const COST = {   // (p, n, α, β, γ) → seconds; n in bytes (Thakur et al. 2005; core/collectives/cost_formulas.cpp)
  "broadcast/linear": (p, n, a, b) => (p - 1) * (a + n * b),
  "broadcast/binomial-tree": (p, n, a, b) => clog2(p) * (a + n * b),
  "broadcast/scatter-allgather": (p, n, a, b) => (clog2(p) + p - 1) * a + 2 * ((p - 1) / p) * n * b,
  "reduce/linear": (p, n, a, b, g) => (p - 1) * (a + n * b + n * g),
  "reduce/binomial-tree": (p, n, a, b, g) => clog2(p) * (a + n * b + n * g),
  "all-reduce/naive": (p, n, a, b, g) => 2 * (p - 1) * (a + n * b) + (p - 1) * n * g,
  "all-reduce/ring": (p, n, a, b, g) => 2 * (p - 1) * a + 2 * ((p - 1) / p) * n * b + ((p - 1) / p) * n * g,
  "all-reduce/recursive-doubling": (p, n, a, b, g) => log2(p) * (a + n * b + n * g),
  "all-reduce/rabenseifner": (p, n, a, b, g) => 2 * log2(p) * a + 2 * ((p - 1) / p) * n * b + ((p - 1) / p) * n * g,
  "all-gather/ring": (p, n, a, b) => (p - 1) * a + ((p - 1) / p) * n * b,
  "all-gather/recursive-doubling": (p, n, a, b) => log2(p) * a + ((p - 1) / p) * n * b,
  "all-gather/bruck": (p, n, a, b) => clog2(p) * a + ((p - 1) / p) * n * b,
  "reduce-scatter/ring": (p, n, a, b, g) => (p - 1) * a + ((p - 1) / p) * n * (b + g),
  "reduce-scatter/pairwise": (p, n, a, b, g) => (p - 1) * a + ((p - 1) / p) * n * (b + g),
  "reduce-scatter/recursive-halving": (p, n, a, b, g) => log2(p) * a + ((p - 1) / p) * n * (b + g),
  "all-to-all/pairwise": (p, n, a, b) => (p - 1) * a + ((p - 1) / p) * n * b,
};
const BW_BOUND = { "all-reduce": (p) => 2 * (p - 1) / p, "all-gather": (p) => (p - 1) / p, "reduce-scatter": (p) => (p - 1) / p,
  "all-to-all": (p) => (p - 1) / p, broadcast: () => 1, reduce: () => 1 };
const GAMMA_BOUND = { "all-reduce": (p) => (p - 1) / p, "reduce-scatter": (p) => (p - 1) / p, reduce: (p) => (p - 1) / p };

// The pipelined chain's best whole k: the better of ⌊k*⌋ and ⌈k*⌉, k* = √((p − 2)nβ/α) (Johnsson & Ho 1989).
function chainBestSegments({ ranks, bytes, alpha, beta }) {
  const T = (k) => (k + ranks - 2) * (alpha + (beta * bytes) / k);
  const star = Math.sqrt(((ranks - 2) * bytes * beta) / alpha);
  const lo = Math.max(1, Math.floor(star)), hi = Math.max(1, Math.ceil(star));
  const segments = T(hi) < T(lo) ? hi : lo;
  return { segments, optimum: star, seconds: T(segments) };
}

const fakeCore = namedFake({
  bestSegments: (algorithm, options) => {
    if (algorithm !== "pipelined-chain") throw new Error(`fake core: no best k for ${algorithm}`);
    return chainBestSegments(options);
  },
  messageTime: (a, b, n) => a + b * n,
  messagesTime: (a, b, count, n) => count * (a + b * n),
  collectiveCost(collective, algorithm, { ranks, bytes, alpha, beta, gamma = 0 }) {
    const f = COST[`${collective}/${algorithm}`];
    if (!f) throw new Error(`fake core: no closed form for ${collective}/${algorithm}`);
    return f(ranks, bytes, alpha, beta, gamma);
  },
  lowerBound: (collective, { ranks, bytes, alpha, beta, gamma = 0 }) =>
    clog2(ranks) * alpha + BW_BOUND[collective](ranks) * bytes * beta + (GAMMA_BOUND[collective]?.(ranks) ?? 0) * bytes * gamma,
  busBandwidth: (collective, ranks, bytes, seconds) => ({ algbw: bytes / seconds, busbw: (bytes / seconds) * BW_BOUND[collective](ranks) }),
  // Only the contention-free cases these exercises use: a fully connected network (the closed form) and a
  // flat ring on nodes × devices (every step waits for the NIC hop; no link carries two messages).
  simulateCollective({ collective, algorithm, ranks, bytes, gamma = 0, topology }) {
    if (topology.kind === "fully-connected") {
      return { makespan: fakeCore.collectiveCost(collective, algorithm, { ranks, bytes, ...topology, gamma }) };
    }
    if (topology.kind === "hierarchical" && collective === "all-reduce" && algorithm === "ring" && topology.nodes > 1) {
      // A cross-node message pays both hops' latencies and streams at the NIC's bandwidth (cut-through).
      return { makespan: 2 * (ranks - 1) * (topology.intra.alpha + topology.inter.alpha + topology.inter.beta * (bytes / ranks)) };
    }
    throw new Error(`fake core: no model for ${algorithm} ${collective} on ${topology.kind}`);
  },
  // Not a closed form but the simulator itself: a trace is replayed by the core's engine (Week 1's single-port
  // network), never by a second copy of it here.
  simulateTrace: (request) => realCore.simulateTrace(request),
});

// The real wasm core (build/wasm/wasm-node): a missing build fails these tests rather than skipping them.
const realCore = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

for (const e of exercises.filter((x) => x.kind === "numeric" || x.kind === "predict")) {
  test(`${e.id}: computed with the fake core, the answer equals its oracle and passes; wrongAnswer fails`, () => {
    const seen = new Set();
    for (const seed of SEEDS) {
      const p = e.params(mulberry32(seed));
      seen.add(JSON.stringify(p));
      const answer = e.answer(p, fakeCore);
      assert.ok(Number.isFinite(answer) && answer > 0, `${e.id} seed ${seed}: answer ${answer}`);
      assert.ok(Math.abs(answer / e.oracle(p) - 1) < 1e-12, `${e.id} seed ${seed}: answer ${answer} with the published ` +
        `formulas, oracle ${e.oracle(p)} — answer and oracle compute one quantity (lessons/AUTHORING.md, "A numeric exercise"); change ${sourceOf(e)}`);
      assert.ok(withinTolerance(answer * (1 + 0.5 * (e.tolerance.rel ?? 0)), answer, e.tolerance));
      const wrong = e.wrongAnswer(p, fakeCore);
      assert.ok(!withinTolerance(wrong, answer, e.tolerance), `${e.id} seed ${seed}: wrongAnswer ${wrong} passes for ${answer} — ` +
        `it must fail the tolerance for every draw (lessons/AUTHORING.md, "A numeric exercise"); change ${sourceOf(e)}`);
      assert.equal(typeof e.prompt(p), "string");
    }
    assert.ok(seen.size > 10, `${e.id}: parameters hardly vary (${seen.size} distinct)`);
  });

  test(`${e.id}: the real wasm core gives the same answer`, () => {
    const rel = 1e-12;
    for (const seed of SEEDS) {
      const p = e.params(mulberry32(seed));
      const want = e.answer(p, fakeCore), got = e.answer(p, realCore);
      assert.ok(Math.abs(got / want - 1) < rel, `${e.id} seed ${seed}: core ${got}, published formulas ${want} — the fake core ` +
        `of tests/exercises/week2_checkers.test.mjs and the wasm core disagree: fix the formula there or the core`);
      assert.ok(!withinTolerance(e.wrongAnswer(p, realCore), got, e.tolerance), `${e.id} seed ${seed}: wrong answer passes`);
    }
  });
}

test("w2-busbw: the time shown is rounded to 3 significant figures and the answer uses it", () => {
  const e = byId["w2-busbw"];
  for (const seed of SEEDS) {
    const p = e.params(mulberry32(seed));
    assert.equal(Number(p.seconds.toPrecision(3)), p.seconds);
  }
});

// ---- choice exercises ---------------------------------------------------------------------------------------
for (const e of exercises.filter((x) => x.kind === "choice")) {
  test(`${e.id}: every claim agrees with the published formulas (fake core)`, () => {
    for (const [i, o] of e.options.entries()) {
      if (o.claim) assert.equal(o.claim(fakeCore), o.correct, `${e.id} option ${i}: “${o.text}” — its claim(core) ` +
        `disagrees with \`correct\` (lessons/AUTHORING.md, "A choice exercise"); change ${sourceOf(e)}`);
    }
  });
}

test("w2-fastest: the numbers quoted in the options are the closed forms'", () => {
  const c = (alg, bytes) => fakeCore.collectiveCost("all-reduce", alg, { ...FASTEST_SCENARIO, bytes });
  const { small, large } = FASTEST_SCENARIO;
  assert.ok(Math.abs(c("recursive-doubling", small) - 31.9e-6) < 0.1e-6);
  assert.ok(Math.abs(c("rabenseifner", small) - 60.6e-6) < 0.5e-6);
  assert.ok(Math.abs(c("ring", small) - 630.6e-6) < 0.5e-6);
  assert.ok(Math.abs(c("ring", large) - 20.79e-3) < 0.01e-3);
  assert.ok(Math.abs(c("recursive-doubling", large) / c("ring", large) - 2.96) < 0.01);
  assert.ok(Math.abs(c("naive", large) / c("ring", large) - 62.1) < 0.1);
});

// ---- code exercises on the local cluster -------------------------------------------------------------------
const codeExercises = exercises.filter((x) => x.kind === "code");
for (const e of codeExercises) {
  test(`${e.id}: the starter runs and fails the checker without crashing it`, async () => {
    const [testCase] = e.cases(mulberry32(5));
    const run = await runLocal(e.starter, testCase);
    const verdict = e.check(run, testCase, fakeCore);
    assert.ok(!verdict.pass, `${e.id}: the starter passes — its checker in ${sourceOf(e)} must fail a program that does nothing`);
    assert.match(verdict.message, /rank \d/i, `${e.id}: the starter's failure message names no rank ("rank 2 …"): a Week 2 ` +
      `failure message names the rank at fault (lessons/AUTHORING.md, "Week 2's code exercises"); change the check in ${sourceOf(e)}`);
  });

  test(`${e.id}: the checker still works without a core (no replay note)`, async () => {
    const [testCase] = e.cases(mulberry32(6));
    const run = await runLocal(e.solution, testCase);
    const verdict = e.check(run, testCase, null);
    assert.ok(verdict.pass, `${e.id}: without a core the reference fails — the verdict must not depend on the replay ` +
      `(lessons/AUTHORING.md, "Week 2's code exercises"; ${sourceOf(e)}): ${verdict.message}`);
    assert.doesNotMatch(verdict.message, /Replayed/, `${e.id}: a replay note without a core; write it with replayNote (collective_checks.js)`);
  });
}

test("w2-ring-allreduce: cases always include a vector whose length is not divisible by p", () => {
  for (const s of SEEDS) assert.ok(byId["w2-ring-allreduce"].cases(mulberry32(s)).some((c) => c.n % c.ranks !== 0));
});

test("w2-ring-allreduce: the replayed solution matches the ring formula when chunks are equal", async () => {
  const e = byId["w2-ring-allreduce"];
  const data = [[1, 2, 3, 4, 5, 6, 7, 8], [10, 20, 30, 40, 50, 60, 70, 80], [-1, -2, -3, -4, -5, -6, -7, -8], [3, 3, 3, 3, 3, 3, 3, 3]];
  const testCase = { ranks: 4, n: 8, inputs: data.map((d) => ({ data: d })) };
  const run = await runLocal(e.solution, testCase);
  const replay = fakeCore.simulateTrace({ ranks: 4, topology: { kind: "fully-connected", alpha: 5e-6, beta: 1 / 25e9 },
    trace: programOrderTrace(run.trace) });
  const formula = fakeCore.collectiveCost("all-reduce", "ring", { ranks: 4, bytes: 64, alpha: 5e-6, beta: 1 / 25e9 });
  assert.ok(Math.abs(replay.makespan / formula - 1) < 1e-12, `replay ${replay.makespan} vs formula ${formula}`);
  const v = e.check(run, testCase, fakeCore);
  assert.ok(v.pass, v.message);
  assert.match(v.message, /your messages take 30 µs; the ring formula gives 30 µs and the lower bound for any all-reduce is 10 µs/);
});

for (const e of codeExercises) {
  test(`${e.id}: the solution passes with the real wasm core, which replays its messages`, async () => {
    // Week 2's rule (lessons/AUTHORING.md, "Week 2's code exercises"): every code exercise implements a collective,
    // declares it (`replays`), and its pass message ends with the replay note that compares the learner's messages
    // with the formula.
    const rule = `a Week 2 code exercise declares \`replays: { collective, algorithm, numbers(testCase) }\` and ends its pass ` +
      `message with replayNote(run, testCase, replays, core) (lessons/AUTHORING.md, "Week 2's code exercises"): change ${sourceOf(e)}`;
    assert.ok(e.replays, `${e.id}: no \`replays\` field — ${rule}`);
    for (const testCase of e.cases(mulberry32(11))) {
      const run = await runLocal(e.solution, testCase);
      const v = e.check(run, testCase, realCore);
      assert.ok(v.pass, `${e.id}: the reference fails its checker (${sourceOf(e)}): ${v.message}`);
      assert.match(v.message, /Replayed on a simulated cluster \(α = 5 µs, 25 GB\/s links\), your messages take [\d.]+ [µm]s/,
        `${e.id}: the pass message has no replay note — ${rule}`);
    }
  });
}

test("w2-ring-allreduce: the real core's replay of the solution matches the ring formula", async () => {
  const e = byId["w2-ring-allreduce"];
  const testCase = { ranks: 4, n: 8, inputs: [0, 1, 2, 3].map((r) => ({ data: Array.from({ length: 8 }, (_, i) => r * 10 + i + 1) })) };
  const run = await runLocal(e.solution, testCase);
  const net = { alpha: 5e-6, beta: 1 / 25e9 };
  const trace = run.trace.map(({ src, dst, bytes, sendTime, recvTime }) => ({ src, dst, bytes, sendTime, recvTime }));
  const replay = realCore.simulateTrace({ ranks: 4, topology: { kind: "fully-connected", ...net }, trace });
  const formula = realCore.collectiveCost("all-reduce", "ring", { ranks: 4, bytes: 64, ...net, gamma: 0 });
  assert.ok(Math.abs(replay.makespan / formula - 1) < 1e-12, `replay ${replay.makespan} vs formula ${formula}`);
});

// ---- shared pieces --------------------------------------------------------------------------------------------
test("chunks: the first n mod p chunks are one element longer", () => {
  assert.deepEqual([0, 1, 2, 3, 4].map((c) => chunkStart(10, 4, c)), [0, 3, 6, 8, 10]);
  assert.deepEqual([0, 2, 3, 5, 6, 9].map((i) => chunkOf(10, 4, i)), [0, 0, 1, 1, 2, 3]);
});

test("explainBySubsets: finds who is missing or counted twice, smallest set first", () => {
  const contrib = [[5, 7], [-3, 11], [100, 2]];
  assert.deepEqual(explainBySubsets([-5, -7], contrib), { sign: -1, ranks: [0] });
  assert.deepEqual(explainBySubsets([2, 18], contrib), { sign: 1, ranks: [0, 1] });
  assert.deepEqual(explainBySubsets([97, 13], contrib), { sign: 1, ranks: [1, 2] });
  assert.equal(explainBySubsets([1, 1], contrib), null);
});

// ---- hand-made RunResults: one correct, then one per way of being wrong ---------------------------------------
const clone = (x) => structuredClone(x);
const expectFail = expectFailWith(fakeCore);
const sumOf = (vectors) => vectors[0].map((_, i) => vectors.reduce((acc, v) => acc + v[i], 0));

// The ring schedule's trace: in step k rank r sends chunk (r − k) mod p to r + 1.
function ringTrace(p, n) {
  const trace = [];
  const len = (c) => chunkStart(n, p, c + 1) - chunkStart(n, p, c);
  for (let k = 0; k < 2 * (p - 1); k++) {
    for (let r = 0; r < p; r++) {
      const c = (((r - k) % p) + p) % p;
      trace.push({ src: r, dst: (r + 1) % p, tag: 0, bytes: 8 * len(c), sendTime: k * 1e-3, recvTime: k * 1e-3 + 5e-4 });
    }
  }
  return trace;
}

test("w2-ring-allreduce checker: synthetic traces", () => {
  const e = byId["w2-ring-allreduce"];
  const data = [[1, 2, 3, 4, 5], [10, 20, 30, 40, 50], [-7, 8, -9, 10, -11]];
  const testCase = { ranks: 3, n: 5, inputs: data.map((d) => ({ data: d })) };
  const sum = sumOf(data);   // [4, 30, 24, 54, 44]
  const results = [sum, Float64Array.from(sum), [...sum]];
  const trace = ringTrace(3, 5);
  assert.ok(e.check(okRun(trace, results), testCase, fakeCore).pass, "a correct ring passes (arrays or Float64Arrays)");

  const offRing = clone(trace); offRing[4].dst = 0;   // rank 1 → rank 0
  expectFail(e, okRun(offRing, results), testCase, /Rank 1 sent to rank 0; in a ring.*rank 1 must send to rank 2 and receive from rank 0/);
  const short = clone(trace).filter((m, i) => !(m.src === 2 && i === trace.length - 1));
  expectFail(e, okRun(short, results), testCase, /Rank 2 sent 3 messages; ring all-reduce sends 2\(p − 1\) = 4 per rank/);
  const whole = clone(trace); whole[0].bytes = 40;
  expectFail(e, okRun(whole, results), testCase, /Rank 0's message 1 carried the whole vector \(40 B\); each message is one chunk of 1 or 2 numbers \(n = 5, p = 3\), 8 or 16 B/);
  const json = clone(trace); json[1].bytes = 11;
  expectFail(e, okRun(json, results), testCase, /Rank 1's message 1 carried 11 B.*not a Float64Array/);
  const lost = clone(trace); lost[7].recvTime = null;
  expectFail(e, okRun(lost, results), testCase, /Rank 2 never received a message rank 1 sent/);

  // Rank 2's chunk 1 (elements 2–3) misses rank 0's contribution; rank 1's chunk 0 counts rank 2 twice.
  const missing = clone(results); missing[2] = [...sum]; missing[2][2] -= 3; missing[2][3] -= 4;
  expectFail(e, okRun(trace, missing), testCase, /Rank 2's chunk 1 \(elements 2–3\) misses the contribution of rank 0 \(element 2: expected 24, got 21\)/);
  const twice = clone(results); twice[1] = [...sum]; twice[1][0] += -7; twice[1][1] += 8;
  expectFail(e, okRun(trace, twice), testCase, /Rank 1's chunk 0 \(elements 0–1\) counts the contribution of rank 2 twice/);
  const both = clone(results); both[0] = [...sum]; both[0][4] += 50 - 11;
  expectFail(e, okRun(trace, both), testCase, /Rank 0's chunk 2 \(element 4\) counts the contributions of ranks 1 and 2 twice.*In step k of the ring/);
  const noise = clone(results); noise[0] = [...sum]; noise[0][4] = 1;
  expectFail(e, okRun(trace, noise), testCase, /Rank 0's chunk 2 \(element 4\) is wrong in 1 element \(element 4: expected 44, got 1\)/);
  expectFail(e, okRun(trace, [sum, sum, sum.slice(1)]), testCase, /Rank 2 returned 4 numbers; every rank must return the summed vector of n = 5/);
  expectFail(e, okRun(trace, [sum, "done", sum]), testCase, /Rank 1 returned no array/);
});

test("w2-ring-allreduce checker: on 2 ranks a swap of whole vectors is told to send chunks, not called only central", () => {
  const e = byId["w2-ring-allreduce"];
  const data = [[1, 2, 3, 4, 5], [10, 20, 30, 40, 50]];
  const testCase = { ranks: 2, n: 5, inputs: data.map((d) => ({ data: d })) };
  const sum = sumOf(data);
  // Both ranks send their 5 numbers (40 B) at once and add what arrives: right sums, wrong messages.
  const swap = [{ src: 0, dst: 1, bytes: 40, sendTime: 0, recvTime: 1 }, { src: 1, dst: 0, bytes: 40, sendTime: 0, recvTime: 1 }];
  expectFail(e, okRun(swap, [sum, sum]), testCase,
    /whole vector \(5 numbers\).*central computation.*swap of whole vectors.*one chunk \(here 3 or 2 numbers\)/);
});

test("w2-allgather-rd checker: synthetic traces", () => {
  const e = byId["w2-allgather-rd"];
  const blocks = [[1, 2], [3, 4], [5, 6], [7, 8]];
  const testCase = { ranks: 4, b: 2, inputs: blocks.map((block) => ({ block })) };
  const all = blocks.flat();
  const trace = [];
  for (let k = 0; k < 2; k++) {
    for (let r = 0; r < 4; r++) trace.push({ src: r, dst: r ^ (1 << k), tag: 0, bytes: 16 << k, sendTime: k * 1e-3, recvTime: k * 1e-3 + 5e-4 });
  }
  const results = [all, all, all, Float64Array.from(all)];
  assert.ok(e.check(okRun(trace, results), testCase, fakeCore).pass);
  const reversed = trace.map((m) => ({ ...m, dst: m.src ^ (m.bytes === 16 ? 2 : 1) }));   // distance 2 first, then 1
  assert.ok(e.check(okRun(reversed, results), testCase, fakeCore).pass, "either order of distances is recursive doubling");

  const ring = clone(trace); ring[4].dst = 3;   // rank 0's 2nd message to rank 3 (distance 3)
  expectFail(e, okRun(ring, results), testCase, /Rank 0's message 2 went to rank 3.*for rank 0 that is ranks 1, 2/);
  const same = clone(trace); same[5].dst = 0;   // rank 1 → rank 0 twice
  expectFail(e, okRun(same, results), testCase, /Rank 1's message 2 went to rank 0/);
  const fat = clone(trace); fat[6].bytes = 64;
  expectFail(e, okRun(fat, results), testCase, /Rank 2's message 2 \(to rank 0\) carried 64 B = 4 blocks; in step k = 1 a rank holds and sends exactly 2\^1 = 2 blocks/);
  const extra = [...clone(trace), { src: 3, dst: 2, tag: 0, bytes: 16, sendTime: 1, recvTime: 1.1 }];
  expectFail(e, okRun(extra, results), testCase, /Rank 3 sent 3 messages; recursive doubling on p = 4 ranks takes log₂p = 2/);
  const lost = clone(trace); lost[3].recvTime = null;
  expectFail(e, okRun(lost, results), testCase, /Rank 2 never received the message rank 3 sent/);

  const zeros = clone(results); zeros[2] = [...all]; zeros[2][0] = zeros[2][1] = 0;
  expectFail(e, okRun(trace, zeros), testCase, /Rank 2's block 0 \(elements 0–1\) is still zeros/);
  const swapped = clone(results); swapped[1] = [5, 6, 3, 4, 1, 2, 7, 8];
  expectFail(e, okRun(trace, swapped), testCase, /Rank 1's block 0 \(elements 0–1\) holds rank 2's block: the data arrived but was put at the wrong offset/);
  expectFail(e, okRun(trace, [all, all, all, all.slice(0, 6)]), testCase, /Rank 3 returned 6 numbers; expected all p·b = 8 numbers/);
});

test("w2-reduce-scatter-rh checker: synthetic traces", () => {
  const e = byId["w2-reduce-scatter-rh"];
  const data = [[1, 2, 3, 4], [10, 20, 30, 40], [100, 200, 300, 400], [-5, 6, -7, 8]];
  const testCase = { ranks: 4, b: 1, inputs: data.map((d) => ({ data: d })) };
  const sum = sumOf(data);   // [106, 228, 326, 452]
  const trace = [];
  for (const [k, d] of [[0, 2], [1, 1]]) {
    for (let r = 0; r < 4; r++) trace.push({ src: r, dst: r ^ d, tag: 0, bytes: 16 >> k, sendTime: k * 1e-3, recvTime: k * 1e-3 + 5e-4 });
  }
  const results = sum.map((x) => [x]);
  assert.ok(e.check(okRun(trace, results), testCase, fakeCore).pass);

  const whole = clone(trace); whole[1].bytes = 32;
  expectFail(e, okRun(whole, results), testCase, /Rank 1's message 1 \(to rank 3\) carried 32 B = 4 numbers.*n\/2\^1 = 2 numbers.*recursive-doubling all-reduce/);
  const far = clone(trace); far[6].dst = 1;   // rank 2's 2nd message to rank 1 (distance 3)
  expectFail(e, okRun(far, results), testCase, /Rank 2's message 2 went to rank 1.*for rank 2 that is ranks 0, 3/);
  const none = clone(trace).filter((m) => m.src !== 3);
  expectFail(e, okRun(none, results), testCase, /Rank 3 sent 0 messages/);

  const missing = clone(results); missing[2] = [326 - 300];
  expectFail(e, okRun(trace, missing), testCase, /Rank 2's block 2 \(elements 2–2 of the input\) misses the contribution of rank 2 \(element 2: expected 326, got 26\)/);
  const twice = clone(results); twice[3] = [452 + 40 + 8];
  expectFail(e, okRun(trace, twice), testCase, /Rank 3's block 3 .* counts the contributions of ranks 1 and 3 twice/);
  expectFail(e, okRun(trace, [sum, ...results.slice(1)]), testCase, /Rank 0 returned 4 numbers; expected only its own block of the sum: b = 1 numbers/);
});
