// Week 4's core from JavaScript: the straggler barrier with speeds [1,1,1,1,3,5], SSP's bound and its stall closed
// form, training under each regime reproducible by seed, Hogwild!'s collision rate against its prediction, the
// closed forms, and bad input as a readable Error.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const free = { alpha: 0, beta: 1e-30 };  // a network that costs nothing measurable
const stragglers = { distribution: "fixed", base: 1, multipliers: [1, 1, 1, 1, 3, 5] };

test("bsp waits for the slowest every round; backup workers do not", async () => {
  const core = await loadCore();
  const bsp = core.simulateParamServer({ regime: "bsp", workers: 6, iterations: 10, parameters: 8, speed: stragglers,
                                         network: free });
  assert.ok(bsp.roundSeconds instanceof Float64Array);
  for (const t of bsp.roundSeconds) assert.ok(Math.abs(t - 5) < 1e-12, `round ${t}`);
  assert.equal(bsp.updates.tau.length, 60);
  assert.equal(core.expectedRoundCompute(stragglers, 6, 6), 5);
  const backup = core.simulateParamServer({ regime: "backup", backup: 2, workers: 6, iterations: 10, parameters: 8,
                                            speed: stragglers, network: free });
  for (const t of backup.roundSeconds) assert.ok(Math.abs(t - 1) < 1e-12, `round ${t}`);
  assert.ok(backup.dropped > 0);
  assert.equal(core.expectedRoundCompute(stragglers, 6, 4), 1);
});

// Each worker's spans come only when asked for (up to three a worker and round: most of a long run's conversion).
// Under bsp with speeds [1,1,1,1,3,5] on a free network worker 0 computes 1 s, then waits 4 s for the slowest.
test("a run's spans come when asked for: a compute span a worker and round, and the waits", async () => {
  const core = await loadCore();
  const request = { regime: "bsp", workers: 6, iterations: 3, parameters: 8, speed: stragglers, network: free };
  const quiet = core.simulateParamServer(request);
  assert.equal("spans" in quiet, false);
  const run = core.simulateParamServer({ ...request, spans: true });
  assert.equal(run.spans.filter((s) => s.kind === "compute").length, 6 * 3);
  const [compute, wait] = run.spans.filter((s) => s.worker === 0);   // (its push takes no time on this network)
  assert.deepEqual([compute.kind, compute.start, compute.end, wait.kind, wait.start], ["compute", 0, 1, "wait", 1]);
  assert.ok(Math.abs(wait.end - 5) < 1e-9, `worker 0 waits until ${wait.end}`);
  assert.deepEqual([...quiet.roundSeconds], [...run.roundSeconds]);
  const trained = core.trainParamServer({ ...request, parameters: undefined, model: { layers: 1, width: 2, hidden: 2 },
                                          spans: true });
  assert.equal(trained.run.spans.filter((s) => s.kind === "compute").length, 6 * 3);
  assert.equal("spans" in core.trainParamServer({ ...request, parameters: undefined,
                                                  model: { layers: 1, width: 2, hidden: 2 } }).run, false);
});

test("ssp's simulated stall equals its fixed-speed closed form for every s", async () => {
  const core = await loadCore();
  for (const s of [0, 1, 2, 4, 8, 16]) {
    const run = core.simulateParamServer({ regime: "ssp", staleness: s, workers: 6, iterations: 40, parameters: 8,
                                           speed: stragglers, network: free });
    const want = core.sspStallFixedSpeeds(stragglers, 6, 40, s);
    assert.ok(Math.abs(run.stallFraction - want.stallFraction) < 1e-12, `s = ${s}`);
  }
});

test("training under a regime is real and reproducible by seed", async () => {
  const core = await loadCore();
  const request = { regime: "asp", workers: 4, servers: 2, iterations: 30, network: { alpha: 1e-5, beta: 1e-9 },
                    speed: { distribution: "exponential", base: 1e-3, seed: 3 },
                    model: { layers: 2, width: 4, hidden: 8 }, batch: 4, lr: 0.05, seed: 1 };
  const a = core.trainParamServer(request), b = core.trainParamServer(request);
  assert.equal(a.training.finalLoss, b.training.finalLoss);
  assert.equal(a.training.loss.length, 1 + 4 * 30 * 2);
  assert.ok(a.training.finalLoss < 0.5 * a.training.loss[0]);
  assert.ok(Math.max(...a.run.updates.tau) > 0);
  const aware = core.trainParamServer({ ...request, stalenessAware: true });
  assert.notEqual(aware.training.finalLoss, a.training.finalLoss);
  const other = core.trainParamServer({ ...request, speed: { ...request.speed, seed: 4 } });
  assert.notEqual(other.training.finalLoss, a.training.finalLoss);
});

test("hogwild's collision rate is near 1 − q^(T−1), and plain writes lose updates", async () => {
  const core = await loadCore();
  const r = core.hogwild({ threads: 8, sparsity: 0.01, features: 1000, updates: 16000, seed: 2 });
  assert.equal(r.predictedCollisionRate, core.hogwildCollisionProbability(8, 1000, 10));
  assert.ok(Math.abs(r.collisionRate - r.predictedCollisionRate) < 0.03, `${r.collisionRate}`);
  assert.equal(r.lostWrites, 0);
  assert.ok(r.finalLoss < r.loss[0]);
  assert.ok(core.hogwild({ threads: 8, sparsity: 0.1, features: 100, updates: 4000, atomic: false }).lostWrites > 0);
});

test("closed forms: harmonic numbers, order statistics, the server bottleneck", async () => {
  const core = await loadCore();
  assert.ok(Math.abs(core.harmonicNumber(4) - 25 / 12) < 1e-15);
  assert.ok(Math.abs(core.expectedMaxExponential(8, 2) - 2 * core.harmonicNumber(8)) < 1e-15);
  assert.ok(Math.abs(core.expectedRoundCompute({ distribution: "exponential", base: 2 }, 8, 6) -
                     core.expectedOrderStatisticExponential(6, 8, 2)) < 1e-8);
  const net = { alpha: 1e-6, beta: 1e-9 };
  const bw = core.psBandwidth(net, 8, 2, 4e6);
  assert.ok(Math.abs(bw.serverSeconds - 8 * (1e-6 + 1e-9 * 2e6)) < 1e-15);
  assert.equal(bw.serversBottleneck, true);
  assert.equal(core.psServersToBalance(net, 8, 4e6), 8);
  assert.equal(core.speedTimes(stragglers, 6, 3)[5][2], 5);
});

test("bad input is a readable Error", async () => {
  const core = await loadCore();
  const base = { regime: "bsp", workers: 4, iterations: 3, network: free };
  assert.throws(() => core.simulateParamServer({ ...base, regime: "eventual" }),
                /unknown regime "eventual"; choose bsp, asp, ssp or backup/);
  assert.throws(() => core.simulateParamServer({ ...base, regime: "backup", backup: 4 }),
                /backup workers b must be in \[0, workers − 1\] = \[0, 3\], got 4/);
  assert.throws(() => core.simulateParamServer({ ...base, speed: { multipliers: [1, 2] } }),
                /one multiplier per worker: 4 workers, got 2 speeds/);
  assert.throws(() => core.hogwild({ threads: 2, sparsity: 2 }), /sparsity .* must be in \(0, 1\], got 2/);
  assert.throws(() => core.simulateParamServer({ ...base, workers: 0 }), /simulateParamServer: workers must be/);
  // the module keeps working
  assert.equal(core.harmonicNumber(1), 1);
});
