// The training lab's core from JavaScript: every parallel strategy trains the same model as the single device
// (losses and final parameters), logs the collectives it should, Adam learns the teacher, stepCost's DP
// communication is the ring all-reduce closed form, ZeRO-1/2 cost what bucketed DP costs, overlap hides a bucket
// behind backward, real model sizes are priced, and bad input is a readable Error.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

const close = (got, want, rel = 1e-12) =>
  assert.ok(Math.abs(got - want) <= rel * Math.abs(want), `got ${got}, want ${want}`);

const model = { layers: 4, width: 8, hidden: 16, activation: "gelu", residual: true };
const strategies = [
  { strategy: "dp", grid: { dp: 4, tp: 1, pp: 1 }, kinds: ["all-reduce"] },
  { strategy: "dp-bucketed", grid: { dp: 4, tp: 1, pp: 1 }, kinds: ["all-reduce"], bucketBytes: 1024 },
  { strategy: "dp-accumulate", grid: { dp: 2, tp: 1, pp: 1 }, kinds: ["all-reduce"], microBatches: 4 },
  { strategy: "zero1", grid: { dp: 4, tp: 1, pp: 1 }, kinds: ["all-gather", "reduce-scatter"] },
  { strategy: "zero2", grid: { dp: 4, tp: 1, pp: 1 }, kinds: ["all-gather", "reduce-scatter"] },
  { strategy: "zero3", grid: { dp: 4, tp: 1, pp: 1 }, kinds: ["all-gather", "reduce-scatter"] },
  { strategy: "tp", grid: { dp: 1, tp: 4, pp: 1 }, kinds: ["all-reduce"] },
  { strategy: "pp-gpipe", grid: { dp: 1, tp: 1, pp: 4 }, kinds: ["send"], microBatches: 4 },
  { strategy: "pp-1f1b", grid: { dp: 1, tp: 1, pp: 2 }, kinds: ["send"], microBatches: 4 },
  { strategy: "fsdp-tp", grid: { dp: 2, tp: 2, pp: 1 }, kinds: ["all-gather", "all-reduce", "reduce-scatter"] },
];
const request = (s, extra = {}) => ({
  strategy: s.strategy, grid: s.grid, microBatches: s.microBatches, bucketBytes: s.bucketBytes, model,
  optimizer: { kind: "adam", lr: 0.01 }, batch: 16, steps: 5, seed: 7, ...extra,
});

test("every strategy trains exactly the single-device model", async () => {
  const core = await loadCore();
  for (const s of strategies) {
    const r = core.trainCompare(request(s));
    assert.ok(r.losses instanceof Float64Array && r.singleLosses instanceof Float64Array, s.strategy);
    assert.equal(r.losses.length, 5, s.strategy);
    assert.equal(r.singleLosses.length, 5, s.strategy);
    for (let i = 0; i < 5; ++i) close(r.losses[i], r.singleLosses[i]);
    assert.ok(r.maxRelativeDifference < 1e-12, `${s.strategy}: ${r.maxRelativeDifference}`);
    assert.ok(r.maxLossRelativeDifference < 1e-12, `${s.strategy}: losses ${r.maxLossRelativeDifference}`);
    const ranks = s.grid.dp * s.grid.tp * s.grid.pp;
    assert.equal(r.memoryPerRank.length, ranks, s.strategy);
    for (const m of r.memoryPerRank) {
      close(m.total, m.params + m.grads + m.optimizer + m.activations);
      assert.ok(m.params > 0 && m.activations > 0, s.strategy);
    }
  }
});

test("commBytes names the collectives of each strategy, with the textbook volumes", async () => {
  const core = await loadCore();
  for (const s of strategies) {
    const { commBytes } = core.trainCompare(request(s, { steps: 1 }));
    assert.deepEqual(Object.keys(commBytes).sort(), s.kinds, s.strategy);
    for (const k of s.kinds) assert.ok(commBytes[k] > 0, `${s.strategy} ${k}`);
  }
  // Ψ = 2·L·D·F fp64 values, N = 4: ring all-reduce 2(N−1)/N·8Ψ; ZeRO-3 gathers twice and reduce-scatters once.
  const psiBytes = 8 * 2 * model.layers * model.width * model.hidden;
  const dp = core.trainCompare(request(strategies[0], { steps: 1 })).commBytes;
  close(dp["all-reduce"], 2 * (3 / 4) * psiBytes);
  const z3 = core.trainCompare(request(strategies[5], { steps: 1 })).commBytes;
  close(z3["all-gather"], 2 * (3 / 4) * psiBytes);
  close(z3["reduce-scatter"], (3 / 4) * psiBytes);
  // ZeRO-1 and ZeRO-2: a reduce-scatter and an all-gather of Ψ — exactly DP's bytes (ZeRO §7.2.1).
  for (const s of [strategies[3], strategies[4]]) {
    const z = core.trainCompare(request(s, { steps: 1 })).commBytes;
    close(z["reduce-scatter"], (3 / 4) * psiBytes);
    close(z["all-gather"], (3 / 4) * psiBytes);
  }
  // A middle pipeline stage sends every activation forward and every gradient back: 2·B·D doubles.
  const pp = core.trainCompare(request(strategies[7], { steps: 1 })).commBytes;
  close(pp.send, 2 * 16 * model.width * 8);
});

test("Adam learns the teacher: the loss falls over 20 steps", async () => {
  const core = await loadCore();
  const r = core.trainCompare(request(strategies[0], { steps: 20 }));
  assert.ok(r.losses[19] < 0.5 * r.losses[0], `loss ${r.losses[0]} → ${r.losses[19]}`);
  for (let i = 0; i < 20; ++i) close(r.losses[i], r.singleLosses[i]);
});

test("same request, same numbers (deterministic from the seed)", async () => {
  const core = await loadCore();
  const a = core.trainCompare(request(strategies[6]));
  const b = core.trainCompare(request(strategies[6]));
  assert.deepEqual(Array.from(a.losses), Array.from(b.losses));
  const c = core.trainCompare(request(strategies[6], { seed: 8 }));
  assert.notEqual(a.losses[0], c.losses[0]);
});

test("stepCost for DP adds exactly the ring all-reduce closed form", async () => {
  const core = await loadCore();
  const [alpha, beta, gamma, flops, batch] = [2e-6, 1 / 50e9, 1e-11, 1e12, 16];
  const big = { layers: 4, width: 64, hidden: 256 };
  const psi = 2 * big.layers * big.width * big.hidden;
  const base = { grid: { dp: 4, tp: 1, pp: 1 }, model: big, batch, flops, alpha, beta, gamma };
  // dp-bucketed with one bucket (Ψ·4 bytes ≤ 25 MiB): one all-reduce of Ψ fp32 values.
  const bucketed = core.stepCost({ strategy: "dp-bucketed", ...base });
  const ring = (bytes) => core.collectiveCost("all-reduce", "ring", { ranks: 4, bytes, alpha, beta, gamma });
  close(bucketed.comm["all-reduce"], ring(psi * 4));
  close(bucketed.total, bucketed.compute + ring(psi * 4));
  assert.equal(bucketed.bubble, 0);
  // Naive DDP: one all-reduce per tensor — 2L of D·F values each.
  const naive = core.stepCost({ strategy: "dp", ...base });
  close(naive.comm["all-reduce"], 2 * big.layers * ring(big.width * big.hidden * 4));
  close(naive.total, naive.compute + naive.comm["all-reduce"]);
  // Compute: forward 4·(B/dp)·D·F per block, backward twice that.
  close(naive.compute, (3 * 4 * (batch / 4) * big.width * big.hidden * big.layers) / flops);
  assert.equal(naive.memoryPerRank.length, 4);
  assert.ok(naive.spans.length > 0);
  for (const s of naive.spans) {
    assert.ok(s.end >= s.start && s.rank >= 0 && s.rank < 4 && typeof s.kind === "string");
    assert.ok(s.end <= naive.total * (1 + 1e-12));
  }
});

test("stepCost: ZeRO-1/2 cost bucketed DP's time; overlap hides a bucket; real model sizes are priced", async () => {
  const core = await loadCore();
  const net = { alpha: 2e-6, beta: 1 / 50e9, flops: 1e12 };
  const base = { grid: { dp: 8 }, model: { layers: 4, width: 256, hidden: 1024 }, batch: 32, bucketBytes: 1 << 20, ...net };
  const dp = core.stepCost({ strategy: "dp-bucketed", ...base });
  for (const strategy of ["zero1", "zero2"]) {
    const z = core.stepCost({ strategy, ...base });
    close(z.comm["reduce-scatter"] + z.comm["all-gather"], dp.comm["all-reduce"]);
    close(z.total, dp.total);
  }
  // Overlap: the same work and collectives, but each bucket's all-reduce starts when backward has produced it,
  // on a "comm" stream beside the "compute" stream — a shorter step, never longer than compute + comm.
  const over = core.stepCost({ strategy: "dp-bucketed", overlap: true, ...base });
  close(over.compute, dp.compute);
  close(over.comm["all-reduce"], dp.comm["all-reduce"]);
  assert.ok(over.total < dp.total && over.total >= Math.max(over.compute, over.comm["all-reduce"]));
  assert.deepEqual([...new Set(over.spans.map((s) => s.stream))].sort(), ["comm", "compute"]);
  for (const s of dp.spans) assert.equal(s.stream, s.kind === "compute" ? "compute" : "comm");
  // A 175-billion-parameter-class stack (96 blocks, D = 12288, F = 4D) on 64 GPUs: priced without allocating it.
  const huge = core.stepCost({ strategy: "zero3", grid: { dp: 64 }, model: { layers: 96, width: 12288, hidden: 49152 },
    batch: 64, elementBytes: 2, ...net });
  const psi = 2 * 96 * 12288 * 49152;
  close(huge.memoryPerRank[0].params, (2 * psi) / 64, 1e-9);
  assert.throws(() => core.trainCompare({ ...request(strategies[0]), model: { layers: 96, width: 12288, hidden: 49152 } }),
    /layers·width·hidden must be at most 1e8/);
});

test("stepCost for pipelines reports a bubble, and recompute shrinks activations", async () => {
  const core = await loadCore();
  const base = { strategy: "pp-gpipe", grid: { dp: 1, tp: 1, pp: 4 }, microBatches: 4, model,
    batch: 16, flops: 1e12, alpha: 1e-6, beta: 1e-10 };
  const r = core.stepCost(base);
  assert.ok(r.bubble > 0);
  assert.ok(r.comm.send > 0);
  close(r.total, r.compute + r.bubble + r.comm.send);
  const lean = core.stepCost({ ...base, recompute: true });
  assert.ok(lean.memoryPerRank[0].activations < r.memoryPerRank[0].activations);
});

// Week 3: divergence is a result; LARS/LAMB under ZeRO equal the single device and report trust ratios; scaling.
test("a diverging run is a result with its step, not an exception", async () => {
  const core = await loadCore();
  const r = core.trainCompare({ ...request(strategies[0], { steps: 12 }), optimizer: { kind: "sgd", lr: 50 } });
  assert.ok(r.divergedAt >= 1 && r.divergedAt === r.singleDivergedAt, `diverged at ${r.divergedAt}`);
  for (let i = 0; i < r.divergedAt; ++i) assert.ok(Number.isFinite(r.losses[i]));
  for (let i = r.divergedAt + 1; i < 12; ++i) assert.ok(Number.isNaN(r.losses[i]));
  assert.ok(Number.isNaN(r.maxRelativeDifference));
  assert.equal(core.trainCompare(request(strategies[0])).divergedAt, -1);
});

test("LARS and LAMB under ZeRO all-reduce their norms and train the single-device model", async () => {
  const core = await loadCore();
  for (const kind of ["lars", "lamb"]) {
    for (const s of [strategies[3], strategies[5]]) {
      const r = core.trainCompare(request(s, { optimizer: { kind, lr: kind === "lars" ? 1 : 0.01, trustCoefficient: 0.02 } }));
      assert.ok(r.maxRelativeDifference < 1e-12, `${kind} ${s.strategy}: ${r.maxRelativeDifference}`);
      assert.equal(r.trustRatios.length, 5);
      assert.equal(r.trustRatios[0].length, 2 * model.layers);
      assert.ok(r.trustRatios[0].every((x) => x > 0 && Number.isFinite(x)));
    }
  }
});

test("dpScaling: strong scaling flattens, weak stays near ideal, at the comm-bound threshold's side", async () => {
  const core = await loadCore();
  const big = { layers: 16, width: 1024, hidden: 4096 };
  const q = { model: big, ranks: [1, 8, 64], flops: 150e12, alpha: 3e-6, beta: 1 / 200e9, elementBytes: 2, overlap: true };
  const strong = core.dpScaling({ ...q, mode: "strong", batch: 16384 });
  const weak = core.dpScaling({ ...q, mode: "weak", batch: 1024 });
  assert.deepEqual(strong.map((p) => p.globalBatch), [16384, 16384, 16384]);
  assert.deepEqual(weak.map((p) => p.globalBatch), [1024, 8192, 65536]);
  close(strong[0].speedup, 1);
  // (Weak is not at ideal: the threshold ignores α, and 11 buckets × 2·63 ring steps × 3 µs add ≈ 4 ms at P = 64.)
  assert.ok(strong[2].efficiency < 0.25 && weak[2].efficiency > 0.5, `${strong[2].efficiency} ${weak[2].efficiency}`);
  const star = core.commBoundBatch({ flops: 150e12, bandwidth: 200e9, elementBytes: 2, ranks: 64, overlap: true });
  close(star, (63 / 64) * 750);
  assert.ok(16384 / 64 < star && 1024 > star);  // strong's 256 rows per GPU are below it, weak's 1024 above
  const v = core.ddpVariants({ strategy: "dp", grid: { dp: 4 }, model: big, batch: 1024, flops: 150e12, alpha: 3e-6,
    beta: 1 / 25e9, elementBytes: 2 });
  assert.ok(v.bucketed.total < v.flat.total && v.flat.total <= v.naive.total, `${v.bucketed.total} ${v.flat.total} ${v.naive.total}`);
});

test("bad input is a readable Error, and the module still works afterwards", async () => {
  const core = await loadCore();
  const ok = request(strategies[6]);
  const cases = [
    [() => core.trainCompare({ ...ok, grid: { dp: 1, tp: 3, pp: 1 } }), /divisible by tp = 3/],
    [() => core.trainCompare({ ...ok, strategy: "dp", grid: { dp: 2, tp: 2, pp: 1 } }),
      /dp runs on a grid with tp = pp = 1 \(it uses only dp\), got dp = 2, tp = 2, pp = 1/],
    [() => core.trainCompare({ ...ok, grid: { dp: 0 } }), /grid: dp must be a whole number >= 1/],
    [() => core.trainCompare({ ...ok, strategy: "telepathy" }),
      /trainCompare: unknown strategy "telepathy"; choose single, dp, dp-bucketed, dp-accumulate, zero1, zero2/],
    [() => core.trainCompare({ ...ok, model: { ...model, hidden: 2.5 } }), /model: hidden must be a whole number/],
    [() => core.trainCompare({ ...ok, model: { ...model, activation: "swish" } }), /swish/],
    [() => core.trainCompare({ ...ok, optimizer: { kind: "adagrad", lr: 0.1 } }), /adagrad/],
    [() => core.dpScaling({ mode: "sideways", model, batch: 16, ranks: [1, 2], flops: 1e12, alpha: 0, beta: 1e-9 }),
      /dpScaling: scaling mode must be strong/],
    [() => core.dpScaling({ mode: "strong", model, batch: 16, ranks: [], flops: 1e12, alpha: 0, beta: 1e-9 }),
      /dpScaling: ranks must be an array of whole numbers >= 1/],
    [() => core.commBoundBatch({ flops: 1e12, bandwidth: 1e9, ranks: 1 }), /commBoundBatch: ranks must be a whole number >= 2/],
    [() => core.trainCompare({ ...ok, strategy: "dp", grid: { dp: 3 } }), /16 rows is not divisible by/],
    [() => core.trainCompare({ ...ok, microBatches: 2 }), /tp takes no micro-batches/],
    [() => core.trainCompare({ ...ok, seed: -1 }), /trainCompare: seed must be a whole number >= 0, got -1/],
    [() => core.trainCompare(null), /trainCompare: expected an object/],
    [() => core.stepCost({ strategy: "dp", grid: { dp: 2, tp: 2 }, model, batch: 16, flops: 1e12, alpha: 1e-6, beta: 1e-9 }), /tp = pp = 1/],
    [() => core.stepCost({ strategy: "dp", grid: { dp: 2 }, model, batch: 16, flops: 1e12, alpha: -1, beta: 1e-9 }), /alpha/],
    [() => core.stepCost({ strategy: "dp", grid: { dp: 2 }, model, batch: 16, flops: 1e12, alpha: 0, beta: 1e-9,
      overlap: "yes" }), /stepCost: overlap must be true or false/],
  ];
  for (const [call, pattern] of cases) {
    assert.throws(call, (e) => e instanceof Error && pattern.test(e.message) && !/^\d+$/.test(e.message),
      `expected an Error matching ${pattern}`);
  }
  const after = core.trainCompare(ok);
  assert.ok(after.maxRelativeDifference < 1e-12, `${after.maxRelativeDifference}`);
});
