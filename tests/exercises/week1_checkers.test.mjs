// Week 1's exercises, checked in Node beyond the rules every exercise keeps (exercise_rules.test.mjs): every
// numeric/predict answer, computed with a fake core written from the published formulas, equals the exercise's oracle
// and the real wasm core's answer (which must be built), and its wrongAnswer fails; the code checkers reject hand-made broken runs with a message that
// names the rank at fault. How the code exercises are judged as a whole (seeded interleavings, synchronous
// sends, hidden cases, every wrong program) is tests/exercises/judging.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";

import exercises from "../../lessons/week1/exercises.js";
import { withinTolerance } from "../../web/exercise/answer_check.js";
import { mulberry32 } from "../../web/exercise/random.js";
import { expectFailWith, okRun } from "./run_results.mjs";

const byId = Object.fromEntries(exercises.map((e) => [e.id, e]));
const SEEDS = Array.from({ length: 40 }, (_, i) => 1000 + 7919 * i);

// A core function the fake does not have fails by name: an exercise that calls a new one needs its published formula here.
function namedFake(fake) {
  return new Proxy(fake, { get: (target, key) => (key in target || typeof key !== "string" ? target[key] : () => {
    throw new Error(`the fake core of tests/exercises/week1_checkers.test.mjs has no ${key}(): add its published formula there`);
  }) });
}

// ---- a fake core: the published formulas, written out independently of the C++ ----------------------
const T = (a, b, n) => a + b * n;
const CLOSED_FORMS = {   // core/include/dsml/scenarios.h, single-port network, T = α + β·n
  "ping-pong": ({ rounds = 1 }, t) => 2 * rounds * t,
  "token-ring": ({ ranks, laps = 1 }, t) => laps * ranks * t,
  "linear-broadcast": ({ ranks }, t) => (ranks - 1) * t,
  "gather-to-root": ({ ranks }, t) => (ranks - 1) * t,
  "compute-then-exchange": ({ computeSeconds }, t) => computeSeconds + t,
};
const fakeCore = namedFake({
  messageTime: T,
  crossoverSize: (a, b) => a / b,
  effectiveBandwidth: (a, b, n) => n / T(a, b, n),
  messagesTime: (a, b, count, n) => count * T(a, b, n),
  amdahlSpeedup: (s, N) => 1 / (s + (1 - s) / N),
  gustafsonSpeedup: (s, N) => N - s * (N - 1),
  amdahlLimit: (s) => 1 / s,
  amdahlSerialFraction: (S, N) => (N / S - 1) / (N - 1),
  scenario: (name, opts) => ({ name, opts }),   // a token standing in for the programs
  simulate: ({ alpha, beta, programs: { name, opts } }) => ({ makespan: CLOSED_FORMS[name](opts, T(alpha, beta, opts.bytes)) }),
});

// The real wasm core (build/wasm/wasm-node): a missing build fails these tests rather than skipping them.
const realCore = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

for (const e of exercises.filter((x) => x.kind === "numeric" || x.kind === "predict")) {
  test(`${e.id}: computed with the fake core, the answer equals its oracle and passes; wrongAnswer fails`, () => {
    for (const seed of SEEDS) {
      const p = e.params(mulberry32(seed));
      const answer = e.answer(p, fakeCore);
      assert.ok(Number.isFinite(answer) && answer > 0, `${e.id} seed ${seed}: answer ${answer}`);
      assert.ok(Math.abs(answer / e.oracle(p) - 1) < 1e-12, `${e.id}: ${answer} vs ${e.oracle(p)}`);
      assert.ok(withinTolerance(answer, answer, e.tolerance));
      assert.ok(withinTolerance(answer * (1 + 0.5 * (e.tolerance.rel ?? 0)), answer, e.tolerance));
      const wrong = e.wrongAnswer(p, fakeCore);
      assert.ok(!withinTolerance(wrong, answer, e.tolerance), `${e.id} seed ${seed}: wrong ${wrong} passes for ${answer}`);
      assert.equal(typeof e.prompt(p), "string");
    }
  });

  test(`${e.id}: the real wasm core gives the same answer`, () => {
    for (const seed of SEEDS) {
      const p = e.params(mulberry32(seed));
      const want = e.answer(p, fakeCore), got = e.answer(p, realCore);
      assert.ok(Math.abs(got / want - 1) < 1e-12, `${e.id} seed ${seed}: core ${got}, closed form ${want}`);
    }
  });
}

test("w1-predict-sim: the page's simulation input is what simulate() needs", () => {
  const e = byId["w1-predict-sim"];
  const p = e.params(mulberry32(1));
  const input = e.scenario(p, fakeCore);
  assert.equal(input.ranks, p.ranks);
  assert.ok(input.alpha > 0 && input.beta > 0 && input.programs);
  const names = new Set(SEEDS.map((s) => e.params(mulberry32(s)).name));
  assert.deepEqual([...names].sort(), ["gather-to-root", "linear-broadcast"]);
});

// Every option's own explanation is exercise_rules.test.mjs's (choiceRules), for every choice exercise.
test("w1-consensus: exactly the two friendly-system facts are correct", () => {
  const e = byId["w1-consensus"];
  assert.deepEqual(e.options.flatMap((o, i) => (o.correct ? [i] : [])), [0, 1]);
});

test("withinTolerance: relative, absolute, and bad input", () => {
  assert.ok(withinTolerance(100.9, 100, { rel: 0.01 }));
  assert.ok(!withinTolerance(101.1, 100, { rel: 0.01 }));
  assert.ok(withinTolerance(0.004, 0, { abs: 0.005 }));
  assert.ok(!withinTolerance(NaN, 1, { rel: 1 }));
  assert.ok(!withinTolerance("1", 1, { rel: 1 }));
  assert.ok(withinTolerance(0.1 + 0.2, 0.3, {}));
});

// ---- code exercises (their cases: exercise_rules.test.mjs; judged as a whole: judging.test.mjs) ---------------------
// ---- hand-made RunResults: one correct, then one per way of being wrong -------------------------------
const clone = (x) => structuredClone(x);
const expectFail = expectFailWith(fakeCore);

test("w1-ping-pong checker: synthetic traces", () => {
  const e = byId["w1-ping-pong"];
  const testCase = { ranks: 2, sizes: [8, 4096, 262144], repeats: 3, inputs: [] };
  // One-way time 1 ms + n / 1 GB/s (slower than the checker's 0.5 ms clock tolerance, so order faults show);
  // rank 1 turns an echo around in 1 µs.
  const trace = [];
  let t = 0;
  for (const n of testCase.sizes) {
    for (let i = 0; i < testCase.repeats; i++) {
      const d = 1e-3 + n / 1e9;
      trace.push({ src: 0, dst: 1, tag: 0, bytes: n, sendTime: t, recvTime: t + d });
      trace.push({ src: 1, dst: 0, tag: 0, bytes: n, sendTime: t + d + 1e-6, recvTime: t + 2 * d + 1e-6 });
      t += 2 * d + 2e-6;
    }
  }
  const report = testCase.sizes.map((n) => ({ bytes: n, seconds: 1e-3 + n / 1e9 }));
  assert.ok(e.check(okRun(trace, [report, undefined]), testCase).pass);

  // Shuffled recording order with the same timestamps still passes (checkers sort per direction).
  assert.ok(e.check(okRun([...trace].reverse(), [report, undefined]), testCase).pass);

  const ack = clone(trace); ack[3].bytes = 1;
  expectFail(e, okRun(ack, [report]), testCase, /Rank 1's 2nd message to rank 0.*1 B; expected 8 B/);
  const missing = clone(trace).slice(0, -1);
  expectFail(e, okRun(missing, [report]), testCase, /Rank 1 sent 8 messages to rank 0; expected 9/);
  const stray = [...clone(trace), { src: 1, dst: 1, tag: 0, bytes: 8, sendTime: t, recvTime: t }];
  expectFail(e, okRun(stray, [report]), testCase, /rank 1 → rank 1/);
  const lost = clone(trace); lost[5].recvTime = null;
  expectFail(e, okRun(lost, [report]), testCase, /rank 1 → rank 0.*never received/);
  const pipelined = clone(trace); pipelined[2].sendTime = pipelined[0].sendTime + 1e-6;   // ping 2 right after ping 1
  expectFail(e, okRun(pipelined, [report]), testCase, /Rank 0 sent the ping of round trip 2/);
  const early = clone(trace); early[1].sendTime = early[0].sendTime + 1e-6;   // echo before the ping arrived
  expectFail(e, okRun(early, [report]), testCase, /Rank 1 sent the echo/);

  expectFail(e, okRun(trace, [report.map((r) => ({ ...r, seconds: r.seconds * 1000 }))]), testCase, /rank 0.*1000× too large/);
  expectFail(e, okRun(trace, [report.map((r) => ({ ...r, seconds: 0.5 }))]), testCase, /reported the same time, 500 ms, for every size/);
  expectFail(e, okRun(trace, [report.map((r, j) => ({ ...r, seconds: j === 1 ? 0.5 : r.seconds }))]), testCase,
    /For 4.096 kB, rank 0 reported a one-way time of 500 ms, but the trace's round trips give a median one-way time of 1 ms: about 500× too large. Read/);
  expectFail(e, okRun(trace, [report.slice(1)]), testCase, /Rank 0 returned 2 entries for 3 sizes/);
  expectFail(e, okRun(trace, [report.map((r) => ({ ...r, bytes: 1 }))]), testCase, /Rank 0's entry 1 has bytes = 1/);
  expectFail(e, okRun(trace, [42]), testCase, /Rank 0 returned 42/);
  expectFail(e, okRun(trace, [report.map((r) => ({ ...r, seconds: "fast" }))]), testCase, /Rank 0 reported seconds = &quot;fast&quot;/);
  expectFail(e, okRun(trace, [report.map((r) => ({ ...r, seconds: 0 }))]), testCase, /[Rr]ank 0 reported/);
});

// A ping-pong trace whose round trips spread like a real machine's: one-way times (seconds) per size, in order;
// `gap` between an echo's arrival and the next ping (a clock tick on a coarse clock).
function pingPongTrace(sizes, oneWays, gap = 0) {
  const trace = [];
  let t = 0;
  sizes.forEach((n, j) => {
    for (const d of oneWays[j]) {
      trace.push({ src: 0, dst: 1, tag: 0, bytes: n, sendTime: t, recvTime: t + d });
      trace.push({ src: 1, dst: 0, tag: 0, bytes: n, sendTime: t + d, recvTime: t + 2 * d });
      t += 2 * d + gap;
    }
  });
  return trace;
}

test("w1-ping-pong checker: the window comes from the trace — exact on the judge's clock, one disturbed round trip on Workers", () => {
  const e = byId["w1-ping-pong"];
  const sizes = [8, 65536], repeats = 5;
  const testCase = { ranks: 2, sizes, repeats, inputs: [] };
  const median = (xs) => [...xs].sort((a, b) => a - b)[2];
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const checker = (run, trips) => (f) => e.check({ ...run, results: [sizes.map((bytes, j) => ({ bytes, seconds: f(trips[j], j) })), undefined] }, testCase);

  // The judge cluster: its clock is exact, so rank 0's median must be the trace's.
  // Round trips with a slow outlier each: medians 10 µs and 30 µs, means 18 µs and 38 µs.
  const trips = [[10e-6, 9e-6, 11e-6, 10e-6, 50e-6], [30e-6, 31e-6, 29e-6, 70e-6, 30e-6]];
  const exact = checker({ ...okRun(pingPongTrace(sizes, trips), []), clock: { kind: "virtual", resolution: 0, skew: 0 } }, trips);
  assert.ok(exact(median).pass, "the trace's own medians pass");
  assert.ok(exact((xs) => median(xs) * (1 + 1e-10)).pass, "rounding is not a mistake");
  assert.match(exact((xs) => median(xs) + 0.1e-6).message, /For 8 B, rank 0 reported a one-way time of 10.1 µs/);
  assert.match(exact((xs) => 2 * median(xs)).message, /20 µs is a whole round trip/);
  assert.match(exact(mean).message, /18 µs is the mean of the round trips, not their median/);
  assert.match(exact((xs) => 1000 * median(xs)).message, /about 1000× too large/);
  assert.match(exact(() => 20e-6).message, /reported the same time, 20 µs, for every size/);

  // Workers: no clock description, so the resolution is read off the trace (a 0.1 ms tick between an echo's
  // arrival and the next ping). Rank 0's readings bracket the stamps, so its median is at least the trace's;
  // ⌊5/3⌋ = 1 round trip may have been delayed past its neighbours: up to the order statistic above, widened by
  // two ticks (one per clock reading).
  const tick = 1e-4;
  const coarse = [[1.0e-3, 1.1e-3, 1.3e-3, 1.5e-3, 4.0e-3], [2.0e-3, 2.2e-3, 2.1e-3, 2.4e-3, 2.3e-3]];
  const worker = checker(okRun(pingPongTrace(sizes, coarse, tick), []), coarse);
  assert.ok(worker(median).pass);
  const first = (x) => (xs, j) => (j === 0 ? x : median(xs));
  assert.ok(worker(first(1.7e-3 - 1e-12)).pass && worker(first(1.1e-3 + 1e-12)).pass, "[M − 2 ticks, t₍₄₎ + 2 ticks] for 8 B");
  assert.match(worker(first(1.71e-3)).message, /For 8 B, rank 0 reported a one-way time of 1.71 ms/);
  assert.match(worker(first(1.09e-3)).message, /For 8 B, rank 0 reported a one-way time of 1.09 ms/);
  assert.match(worker(mean).message, /1.78 ms is the mean of the round trips, not their median/);   // mean > t₍₄₎ + 2 ticks
  assert.match(worker((xs) => 2 * median(xs)).message, /2.6 ms is a whole round trip/);

  // A one-way time under a tick (50 µs on a 0.1 ms clock): the window is wider than the time itself, so it holds a
  // number 10× off as well as 1000× off. Each is named by its own factor.
  const fast = [[50e-6, 60e-6, 50e-6, 40e-6, 50e-6], [70e-6, 80e-6, 70e-6, 60e-6, 70e-6]];
  const small = checker(okRun(pingPongTrace(sizes, fast, tick), []), fast);
  assert.ok(small(median).pass);
  const tenfold = small((xs) => 10 * median(xs)).message;
  assert.match(tenfold, /For 8 B, rank 0 reported a one-way time of 500 µs, but .* median one-way time of 50 µs: about 10× too large\./);
  assert.doesNotMatch(tenfold, /1000×/);
  assert.match(small((xs) => 1000 * median(xs)).message, /about 1000× too large: <code>ctx.now\(\)<\/code> is in milliseconds/);
});

function ringTrace(p, order = [...Array(p).keys()]) {
  let t = 0;
  return order.map((r) => {
    const m = { src: r, dst: (r + 1) % p, tag: 0, bytes: 8, sendTime: t, recvTime: t + 0.9e-3 };
    t += 1e-3;   // hops 1 ms apart: more than the checker's 0.5 ms clock tolerance
    return m;
  });
}

test("w1-token-ring checker: synthetic traces", () => {
  const e = byId["w1-token-ring"];
  const values = [3, -4, 10, 7, 1];
  const testCase = { ranks: 5, start: 500, values, inputs: [] };
  const total = 500 + 17;
  assert.ok(e.check(okRun(ringTrace(5), [total]), testCase).pass);
  assert.ok(e.check(okRun(ringTrace(5).reverse(), [total]), testCase).pass, "recording order does not matter");

  const wrongDst = ringTrace(5); wrongDst[3].dst = 1;
  expectFail(e, okRun(wrongDst, [total]), testCase, /Rank 3 sent to rank 1; in a ring, rank r sends to \(r \+ 1\) mod p, so rank 3 must send to rank 4/);
  const silent = ringTrace(5).filter((m) => m.src !== 2);
  expectFail(e, okRun(silent, [total]), testCase, /Rank 2 sent nothing/);
  const twice = [...ringTrace(5), { src: 4, dst: 0, tag: 0, bytes: 8, sendTime: 1, recvTime: 1.1 }];
  expectFail(e, okRun(twice, [total]), testCase, /Rank 4 sent 2 messages/);
  const outOfOrder = ringTrace(5, [0, 2, 1, 3, 4]);
  expectFail(e, okRun(outOfOrder, [total]), testCase, /Rank 2 sent the 2nd message, before rank 1/);
  const lost = ringTrace(5); lost[4].recvTime = null;
  expectFail(e, okRun(lost, [total]), testCase, /Rank 0 never received the token from rank 4/);
  expectFail(e, okRun(ringTrace(5), [total - 3]), testCase, /Rank 0 returned 514.*own value short/);
  expectFail(e, okRun(ringTrace(5), [total + 1]), testCase, /Rank 0 returned 518; expected/);
  expectFail(e, okRun(ringTrace(5), [String(total)]), testCase, /Rank 0 returned &quot;517&quot;; expected start \+ Σ values = 500 \+ 3 \+ \(−4\) \+ 10 \+ 7 \+ 1 = 517/);
  expectFail(e, okRun(ringTrace(5), []), testCase, /Rank 0 returned nothing/);
});

test("w1-bsp-step checker: synthetic traces", () => {
  const e = byId["w1-bsp-step"];
  const blocks = [[1, 2], [3], [-4, 0, 1], [10]];
  const testCase = { ranks: 4, blocks, inputs: [] };
  const sums = [3, 3, -3, 10];
  const results = [10 + 3 + 3, 3 + 3 - 3, 3 - 3 + 10, -3 + 10 + 3];
  const trace = [];
  for (let r = 0; r < 4; r++) {
    for (const d of [(r + 3) % 4, (r + 1) % 4]) trace.push({ src: r, dst: d, tag: 0, bytes: 8, sendTime: r * 1e-5, recvTime: r * 1e-5 + 5e-5 });
  }
  assert.equal(sums.length, 4);
  assert.ok(e.check(okRun(trace, results), testCase).pass);

  const far = clone(trace); far[0].dst = 2;
  expectFail(e, okRun(far, results), testCase, /Rank 0 sent to rank 2, which is not its neighbour.*rank 3 \(left\) and rank 1 \(right\)/);
  const fat = clone(trace); fat[5].bytes = 400;
  expectFail(e, okRun(fat, results), testCase, /Rank 2 sent 400 B to rank 3/);
  const bothRight = clone(trace); bothRight[2].dst = 2;
  expectFail(e, okRun(bothRight, results), testCase, /Rank 1 sent 0 messages to its left neighbour \(rank 0\) and 2/);
  const missing = clone(trace).filter((_, i) => i !== 7);
  expectFail(e, okRun(missing, results), testCase, /Rank 3 sent 1 message to its left.* and 0 to its right/);
  const lost = clone(trace); lost[2].recvTime = null;
  expectFail(e, okRun(lost, results), testCase, /Rank 0 never received the message from rank 1/);
  const off = [...results]; off[2] = 0;
  expectFail(e, okRun(trace, off), testCase, /Rank 2 returned 0; expected 3 \(rank 1\) \+ \(−3\) \(its own\) \+ 10 \(rank 3\) = 10/);
});
