// Week 4 from JavaScript: stragglers whose speed every worker draws afresh each round from a list
// (speed.roundSpeeds, the seed notebook's [1, 1, 1, 1, 3, 5]) beside the same list as fixed per-worker speeds, and
// sspClockLimits — what a bound s can absorb in each: nothing from a permanently slow worker, E[max] − E[X] per clock
// from slowness that comes and goes. Bad input as a readable Error.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const free = { alpha: 0, beta: 1e-30 };  // a network that costs nothing measurable
const LIST = [1, 1, 1, 1, 3, 5];
const fixed = { distribution: "fixed", multipliers: LIST };
const perRound = { roundSpeeds: LIST, seed: 1 };   // the list alone means per-round, as `dsml ps --round-speeds`
// E[max of 6 draws]: P(max ≥ 3) = 1 − (4/6)^6, P(max ≥ 5) = 1 − (5/6)^6.
const BARRIER = 1 + 2 * (1 - (4 / 6) ** 6) + 2 * (1 - (5 / 6) ** 6);

test("per-round draws take every value of the list, on every worker", async () => {
  const core = await loadCore();
  const times = core.speedTimes({ ...perRound, base: 0.5 }, 6, 600);
  for (const w of times) {
    assert.deepEqual([...new Set(w)].sort(), [0.5, 1.5, 2.5], "each worker is sometimes fast, sometimes 3× or 5× slow");
  }
  assert.deepEqual(core.speedTimes({ ...perRound, distribution: "per-round", base: 0.5 }, 6, 600), times);
  assert.deepEqual([...core.speedTimes({ ...fixed, base: 0.5 }, 6, 3)[5]], [2.5, 2.5, 2.5]);
});

test("sspClockLimits: a fixed slow worker leaves nothing to absorb, per-round slowness E[max] − E[X]", async () => {
  const core = await loadCore();
  assert.deepEqual(core.sspClockLimits(fixed, 6),
                   { barrierSeconds: 5, unboundedSeconds: 5, absorbableSeconds: 0, absorbableFraction: 0 });
  const limits = core.sspClockLimits(perRound, 6);
  assert.ok(Math.abs(limits.barrierSeconds - BARRIER) < 1e-12, `${limits.barrierSeconds}`);
  assert.equal(limits.unboundedSeconds, 2);
  assert.ok(Math.abs(limits.absorbableFraction - (1 - 2 / BARRIER)) < 1e-12);
  assert.equal(core.expectedRoundCompute(perRound, 6, 6), limits.barrierSeconds);
});

test("simulated: SSP's makespan stays at I·5 s for the fixed list and falls towards I·2 s for per-round draws",
     async () => {
  const core = await loadCore();
  const run = (speed, s, iterations) => core.simulateParamServer({ regime: "ssp", staleness: s, workers: 6, iterations,
                                                                  parameters: 8, speed, network: free });
  for (const s of [0, 4, 16]) assert.ok(Math.abs(run(fixed, s, 40).makespan - 200) < 1e-9, `fixed, s = ${s}`);
  const I = 2000, at0 = run(perRound, 0, I).makespan / I, at64 = run(perRound, 64, I).makespan / I;
  assert.ok(Math.abs(at0 - BARRIER) < 0.05 * BARRIER, `s = 0: ${at0} s per clock`);
  assert.ok(at64 < 1.1 * 2 && at64 >= 2 * 0.97, `s = 64: ${at64} s per clock`);
  const bsp = core.simulateParamServer({ regime: "bsp", workers: 6, iterations: I, parameters: 8, speed: perRound,
                                         network: free });
  assert.ok(Math.abs(bsp.makespan / I - at0) < 1e-12, "SSP at s = 0 is BSP");
});

test("bad per-round input is a readable Error", async () => {
  const core = await loadCore();
  assert.throws(() => core.speedTimes({ distribution: "per-round" }, 2, 2),
                /the per-round model needs a list of speeds to draw from/);
  assert.throws(() => core.sspClockLimits({ distribution: "exponential", roundSpeeds: [1, 3] }, 2),
                /a list of per-round speeds is for the per-round model, but the model is exponential/);
  assert.throws(() => core.sspClockLimits({ roundSpeeds: [1, -3] }, 2), /every per-round speed must be a finite number > 0/);
});
