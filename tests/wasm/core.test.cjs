// The wasm core as JavaScript sees it: values match the published formulas, and bad input becomes an
// Error with a readable message — never an abort that would kill the module.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const close = (got, want, rel = 1e-12) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `got ${got}, want ${want}`);

test("version is a semver string", async () => {
  const core = await loadCore();
  assert.match(core.version(), /^\d+\.\d+\.\d+$/);
});

test("α–β model: T(n), n*, effective bandwidth, count·T(n)", async () => {
  const core = await loadCore();
  close(core.messageTime(1e-6, 1e-11, 1e6), 1e-6 + 1e-5);
  close(core.crossoverSize(1e-6, 1 / 100e9), 100e3);            // 1 µs, 100 GB/s → 100 KB
  close(core.crossoverSize(5e-6, 1 / 12.5e9), 62.5e3);          // 5 µs, 12.5 GB/s → 62.5 KB
  close(core.effectiveBandwidth(1e-6, 1e-11, 1e5), 1e5 / 2e-6);  // at n*, half the peak
  close(core.messagesTime(5e-6, 1 / 12.5e9, 200, 50e3), 200 * (5e-6 + 50e3 / 12.5e9));
});

test("Amdahl and Gustafson", async () => {
  const core = await loadCore();
  close(core.amdahlSpeedup(1 / 15, 16), 8);
  close(core.amdahlSerialFraction(8, 16), 1 / 15);
  close(core.amdahlLimit(0.05), 20);
  close(core.gustafsonSpeedup(0.1, 64), 64 - 0.1 * 63);
});

test("iron law of a step and the tail at scale", async () => {
  const core = await loadCore();
  close(core.stepTime(0.03, 0.04, 0), 0.07);
  close(core.stepTime(0.03, 0.04, 1), 0.04);
  close(core.probabilityAnySlow(0.01, 100), 1 - 0.99 ** 100, 1e-12);
  assert.throws(() => core.stepTime(0.03, 0.04, 2), /overlap/);
});

test("fitAlphaBeta recovers α and β from exact points", async () => {
  const core = await loadCore();
  const bytes = [8, 1024, 65536, 1 << 20, 4 << 20];
  const fit = core.fitAlphaBeta(bytes, bytes.map((n) => 3e-5 + n / 2e9));
  close(fit.alpha, 3e-5);  // to rounding: measured 1e-15 relative
  close(fit.beta, 1 / 2e9);
  close(fit.rSquared, 1);
  assert.equal(fit.points, 5);
  const typed = core.fitAlphaBeta(Float64Array.from(bytes), Float64Array.from(bytes.map((n) => 1e-6 + n * 1e-9)));
  close(typed.beta, 1e-9);
  close(typed.alpha, 1e-6, 1e-12 * (1e-6 + 4 * 2 ** 20 * 1e-9) / 1e-6);  // α to rounding of the largest time
});

test("simulate: ping-pong takes 2·rounds·(α + βn) and returns spans and messages", async () => {
  const core = await loadCore();
  const alpha = 2e-6, beta = 1e-9, bytes = 1000, rounds = 3;
  const result = core.simulate({ ranks: 2, alpha, beta, programs: core.scenario("ping-pong", { rounds, bytes }) });
  close(result.makespan, 2 * rounds * (alpha + beta * bytes));
  assert.equal(result.messages.length, 2 * rounds);
  assert.equal(result.totalBytes, 2 * rounds * bytes);
  assert.deepEqual(Object.keys(result.messages[0]).sort(),
                   ["arrived", "bytes", "dst", "posted", "received", "src", "started", "tag"]);
  assert.ok(result.spans.some((s) => s.kind === "send") && result.spans.some((s) => s.kind === "wait"));
  assert.match(core.traceText({ ranks: 2, alpha, beta, programs: core.scenario("ping-pong", { rounds, bytes }) }),
               /rank 0 send-start -> 1 1000 B/);
});

test("simulate: hand-written programs, linear broadcast and gather closed forms", async () => {
  const core = await loadCore();
  const alpha = 1e-6, beta = 1e-10, n = 4096, p = 6, t = alpha + beta * n;
  const bcast = core.simulate({ ranks: p, alpha, beta, programs: core.scenario("linear-broadcast", { ranks: p, bytes: n }) });
  close(bcast.makespan, (p - 1) * t);
  const gather = core.simulate({ ranks: p, alpha, beta, programs: core.scenario("gather-to-root", { ranks: p, bytes: n }) });
  close(gather.makespan, (p - 1) * t);
  const manual = core.simulate({ ranks: 2, alpha, beta, programs: [
    [{ op: "compute", seconds: 1e-3 }, { op: "send", to: 1, bytes: n }],
    [{ op: "recv", from: 0 }],
  ] });
  close(manual.makespan, 1e-3 + t);
});

test("bad input reaches JavaScript as an Error with a readable message", async () => {
  const core = await loadCore();
  const cases = [
    [() => core.crossoverSize(1e-6, 0), /beta/],
    [() => core.messageTime(1e-6, -1e-9, 10), /beta/],
    [() => core.messageTime(NaN, 1e-9, 10), /alpha/],
    [() => core.messageTime(1e-6, 1e-9, -5), /bytes/],
    [() => core.amdahlSpeedup(1.5, 4), /serial/],
    [() => core.amdahlSpeedup(0.1, 0), /processors/],
    [() => core.fitAlphaBeta([1, 2, 3], [1, 2]), /length|same/],
    [() => core.fitAlphaBeta([1], [1]), /2|two/],
    [() => core.fitAlphaBeta("nope", [1]), /bytes must be an array/],
    [() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 0, programs: [[], []] }), /beta/],
    [() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 1e-9, programs: [[]] }), /programs has 1 entries but ranks is 2/],
    [() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 1e-9, programs: [[{ op: "send", to: 5, bytes: 1 }], []] }), /5/],
    [() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 1e-9, programs: [[{ op: "jump" }], []] }), /op must be/],
    [() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 1e-9, programs: [[{ op: "send", to: 1 }], []] }), /bytes must be a number/],
    [() => core.simulate(null), /expected an object/],
    [() => core.scenario("telepathy", { ranks: 2 }), /unknown scenario/],
    [() => core.scenario("token-ring", { ranks: 0, bytes: 1 }), /ranks/],
  ];
  for (const [call, pattern] of cases) {
    assert.throws(call, (err) => {
      assert.ok(err instanceof Error, `expected an Error, got ${typeof err}: ${err}`);
      assert.match(err.message, pattern);
      return true;
    });
  }
  close(core.crossoverSize(1e-6, 1e-11), 1e5);  // the module still works afterwards
});

test("a deadlock is an Error naming the wait-for cycle", async () => {
  const core = await loadCore();
  assert.throws(() => core.simulate({ ranks: 2, alpha: 1e-6, beta: 1e-9, programs: [
    [{ op: "recv", from: 1 }, { op: "send", to: 1, bytes: 8 }],
    [{ op: "recv", from: 0 }, { op: "send", to: 0, bytes: 8 }],
  ] }), { message: "deadlock: rank 0 waits for rank 1, rank 1 waits for rank 0" });
});
