// The lab's kernels from JavaScript: shapes of every result, readable errors naming the function and the
// argument, a tensor-parallel split that sums to the full block, and the end-to-end promise the lab trainer
// rests on — a plain JS loop over the kernels (forward with the residual, mseLoss, backward, optimizerStep)
// reproduces core.trainSingle, the single-device reference of trainCompare, to 1e-12.
const test = require("node:test");
const assert = require("node:assert/strict");
const loadCore = require("./load_core.cjs");

// A deterministic Float64Array of n values in [−1, 1).
const filled = (n, seed) => Float64Array.from({ length: n }, (_, i) => Math.sin(seed * 12.9898 + i * 78.233) % 1);
const add = (a, b) => a.map((v, i) => v + b[i]);
const maxAbs = (a) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
// |got − want| ≤ rel·max|want| elementwise: relative to the tensor's scale.
function closeArrays(got, want, rel, what) {
  assert.equal(got.length, want.length, `${what}: length`);
  const scale = Math.max(maxAbs(want), Number.MIN_VALUE);
  for (let i = 0; i < want.length; ++i)
    assert.ok(Math.abs(got[i] - want[i]) <= rel * scale, `${what}[${i}]: got ${got[i]}, want ${want[i]}`);
}

test("kernels return fresh Float64Arrays of the contract's shapes", async () => {
  const core = await loadCore();
  const rows = 3, width = 4, fl = 6;
  const x = filled(rows * width, 1), wIn = filled(fl * width, 2), wOut = filled(width * fl, 3);
  const f = core.blockInForward(x, wIn, rows, width, "gelu");
  assert.ok(f.pre instanceof Float64Array && f.act instanceof Float64Array);
  assert.equal(f.pre.length, rows * fl);
  assert.equal(f.act.length, rows * fl);
  // Row-major: pre[r·Fl + j] = Σ_k x[r·D + k]·wIn[j·D + k].
  let want = 0;
  for (let k = 0; k < width; ++k) want += x[1 * width + k] * wIn[2 * width + k];
  assert.ok(Math.abs(f.pre[1 * fl + 2] - want) < 1e-15);
  const y = core.blockOutForward(f.act, wOut, rows, width);
  assert.ok(y instanceof Float64Array);
  assert.equal(y.length, rows * width);
  const dy = filled(rows * width, 4);
  const ob = core.blockOutBackward(dy, f.act, wOut, rows, width);
  assert.equal(ob.dWOut.length, width * fl);
  assert.equal(ob.dA.length, rows * fl);
  const ib = core.blockInBackward(ob.dA, f.pre, x, wIn, rows, width, "gelu");
  assert.equal(ib.dWIn.length, fl * width);
  assert.equal(ib.dX.length, rows * width);
  const l = core.mseLoss(y, dy);
  assert.equal(typeof l.loss, "number");
  assert.equal(l.grad.length, y.length);
  // Results are copies, not views into wasm memory: zeroing a result leaves the next call's results unaffected, and
  // the next call (which reuses the freed wasm memory) does not write into the earlier result.
  const pre = Float64Array.from(f.pre), act = Float64Array.from(f.act);
  f.pre.fill(0);
  f.act.fill(0);
  const again = core.blockInForward(x, wIn, rows, width, "gelu");
  assert.deepEqual(again.pre, pre);
  assert.deepEqual(again.act, act);
  assert.ok(f.pre.every((v) => v === 0) && f.act.every((v) => v === 0), "a later call changed an earlier result");
});

test("a tensor-parallel split of the block sums to the full block", async () => {
  const core = await loadCore();
  const rows = 2, width = 3, hidden = 4, half = hidden / 2;
  const x = filled(rows * width, 5), wIn = filled(hidden * width, 6), wOut = filled(width * hidden, 7);
  const full = core.blockOutForward(core.blockInForward(x, wIn, rows, width, "tanh").act, wOut, rows, width);
  // W_in by rows (contiguous in row-major), W_out by columns (a strided gather).
  const outColumns = (t) => Float64Array.from({ length: width * half }, (_, i) =>
    wOut[Math.floor(i / half) * hidden + t * half + (i % half)]);
  let sum = new Float64Array(rows * width);
  for (let t = 0; t < 2; ++t) {
    const inRows = wIn.slice(t * half * width, (t + 1) * half * width);
    sum = add(sum, core.blockOutForward(core.blockInForward(x, inRows, rows, width, "tanh").act, outColumns(t),
      rows, width));
  }
  closeArrays(sum, full, 1e-14, "TP sum");
});

test("bad input is a readable Error naming the function and the argument", async () => {
  const core = await loadCore();
  const wIn = new Float64Array(4 * 8);
  assert.throws(() => core.blockInForward(new Float64Array(100), wIn, 12, 8, "relu"),
    /blockInForward: x has 100 numbers, expected rows · width = 12 · 8 = 96/);
  assert.throws(() => core.blockInForward(new Float64Array(96), new Float64Array(30), 12, 8, "relu"),
    /blockInForward: wIn has 30 numbers, not a positive multiple of width = 8/);
  assert.throws(() => core.blockInForward(new Float64Array(96), wIn, 12, 8, "swish"), /blockInForward: activation/);
  assert.throws(() => core.blockOutForward(new Float64Array(5), new Float64Array(16), 2, 8),
    /blockOutForward: a has 5/);
  assert.throws(() => core.blockOutBackward(new Float64Array(16), new Float64Array(5), new Float64Array(16), 2, 8),
    /blockOutBackward: a has 5 numbers, expected rows · Fl = 2 · 2 = 4/);
  assert.throws(() => core.blockInBackward(new Float64Array(8), new Float64Array(7), new Float64Array(16), wIn, 2, 8,
    "relu"), /blockInBackward: pre has 7 numbers/);
  assert.throws(() => core.blockInForward(new Float64Array(96), wIn, 2.5, 8, "relu"), /rows must be a whole number/);
  assert.throws(() => core.mseLoss(new Float64Array(3), new Float64Array(4)), /mseLoss: t has 4 numbers/);
  assert.throws(() => core.optimizerStep({ kind: "adam", lr: 0.1 }, 1, new Float64Array(3), new Float64Array(2),
    new Float64Array(0), new Float64Array(0)), /optimizerStep: g has 2 numbers/);
  assert.throws(() => core.optimizerStep({ kind: "adam", lr: 0.1 }, 1, new Float64Array(3), new Float64Array(3),
    new Float64Array(2), new Float64Array(0)), /optimizerStep: m has 2 numbers/);
  assert.throws(() => core.optimizerStep({ kind: "lamb", lr: 0.1 }, 1, new Float64Array(3), new Float64Array(3),
    new Float64Array(0), new Float64Array(0)), /optimizerStep: lamb needs each tensor's whole norm/);
  assert.throws(() => core.optimizerStep({ kind: "sgd", lr: 0.1 }, 0, new Float64Array(3), new Float64Array(3),
    new Float64Array(0), new Float64Array(0)), /optimizerStep: t must be a whole number >= 1/);
  assert.throws(() => core.blockInForward([1, 2], wIn, 1, 8, "relu"), /x has 2 numbers/);
  assert.throws(() => core.blockInForward("x", wIn, 1, 8, "relu"), /blockInForward: x must be a Float64Array/);
  assert.throws(() => core.teacherBatch({ model: { layers: 1, width: 2, hidden: 3 }, seed: 1, step: 0 }),
    /teacherBatch: batch is required/);
  assert.throws(() => core.trainSingle({ model: { layers: 1, width: 2, hidden: 3 }, batch: 2, steps: 1 }),
    /trainSingle: optimizer must be an object/);
});

test("mlpInit, teacherBatch and optimizerStep follow the core's conventions", async () => {
  const core = await loadCore();
  const params = core.mlpInit({ layers: 2, width: 3, hidden: 5, seed: 11 });
  assert.equal(params.length, 4);
  assert.deepEqual(params.map((p) => p.length), [15, 15, 15, 15]);
  assert.deepEqual(core.mlpInit({ layers: 2, width: 3, hidden: 5, seed: 11 }), params);  // deterministic
  const model = { layers: 2, width: 3, hidden: 5, activation: "relu", residual: false };
  const b = core.teacherBatch({ model, seed: 4, step: 2, batch: 6 });
  assert.equal(b.inputs.length, 18);
  assert.equal(b.targets.length, 18);
  assert.notDeepEqual(core.teacherBatch({ model, seed: 4, step: 3, batch: 6 }).inputs, b.inputs);
  // SGD: w − lr·g; the unused state comes back as it went in.
  const s = core.optimizerStep({ kind: "sgd", lr: 0.5 }, 1, new Float64Array([1, 2]), new Float64Array([2, -2]),
    new Float64Array(0), new Float64Array(0));
  assert.deepEqual([...s.w], [0, 3]);
  assert.equal(s.m.length, 0);
  // Adam's first step moves every weight by lr against the sign of its gradient (bias-corrected m/√v = ±1).
  const a = core.optimizerStep({ kind: "adam", lr: 0.1, epsilon: 1e-12 }, 1, new Float64Array([1, 2]),
    new Float64Array([3, -0.5]), new Float64Array(0), new Float64Array(0));
  closeArrays(a.w, [0.9, 2.1], 1e-10, "adam w");
  assert.equal(a.m.length, 2);
  assert.equal(a.v.length, 2);
});

// The writing variants the lab trainer uses (it reuses its gradient buffers and updates its tensors in place):
// bit for bit what the returning kernels give, over two Adam steps; a wrong output is a readable error.
test("blockOutBackwardInto, blockInBackwardInto and optimizerStepInPlace equal the returning kernels", async () => {
  const core = await loadCore();
  const rows = 3, width = 4, fl = 6;
  const x = filled(rows * width, 1), wIn = filled(fl * width, 2), wOut = filled(width * fl, 3), dy = filled(rows * width, 4);
  const { pre, act } = core.blockInForward(x, wIn, rows, width, "gelu");
  const out = core.blockOutBackward(dy, act, wOut, rows, width);
  const dWOut = new Float64Array(width * fl).fill(NaN), dA = new Float64Array(rows * fl).fill(NaN);  // stale contents
  assert.equal(core.blockOutBackwardInto(dy, act, wOut, rows, width, dWOut, dA), undefined);
  assert.deepEqual([dWOut, dA], [out.dWOut, out.dA]);
  const inb = core.blockInBackward(dA, pre, x, wIn, rows, width, "gelu");
  const dWIn = new Float64Array(fl * width), dX = new Float64Array(rows * width);
  core.blockInBackwardInto(dA, pre, x, wIn, rows, width, "gelu", dWIn, dX);
  assert.deepEqual([dWIn, dX], [inb.dWIn, inb.dX]);

  const opt = { kind: "adam", lr: 0.1 };
  let ref = { w: wIn, m: new Float64Array(0), v: new Float64Array(0) };
  const w = wIn.slice(), m = new Float64Array(w.length), v = new Float64Array(w.length);
  for (const t of [1, 2]) {
    ref = core.optimizerStep(opt, t, ref.w, dWIn, ref.m, ref.v);
    core.optimizerStepInPlace(opt, t, w, dWIn, m, v);
    assert.deepEqual([w, m, v], [ref.w, ref.m, ref.v], `step ${t}`);
  }
  const sgdW = new Float64Array([1, 2]), unused = new Float64Array(0);
  core.optimizerStepInPlace({ kind: "sgd", lr: 0.5 }, 1, sgdW, new Float64Array([2, -2]), unused, unused);
  assert.deepEqual([...sgdW], [0, 3]);

  assert.throws(() => core.blockOutBackwardInto(dy, act, wOut, rows, width, new Float64Array(5), dA),
    /blockOutBackwardInto: dWOut must be a Float64Array of width · Fl = 24 numbers, got 5/);
  assert.throws(() => core.blockInBackwardInto(dA, pre, x, wIn, rows, width, "gelu", dWIn, [0, 0]),
    /blockInBackwardInto: dX must be a Float64Array of rows · width = 12 numbers$/);
  assert.throws(() => core.optimizerStepInPlace(opt, 1, w, dWIn, new Float64Array(0), v),
    /optimizerStepInPlace: m has 0 numbers, expected one per parameter, 24 \(in place, the state is updated/);
});

// The lab trainer's step on one rank holding the whole model: forward block by block with the residual, the
// loss, backward block by block, then optimizerStep on every tensor.
function jsTrain(core, { model, optimizer, batch, steps, seed }) {
  const { width, layers, activation, residual } = model;
  const params = core.mlpInit({ ...model, seed: seed + 1 });
  const state = params.map(() => ({ m: new Float64Array(0), v: new Float64Array(0) }));
  const losses = [];
  for (let step = 0; step < steps; ++step) {
    const { inputs, targets } = core.teacherBatch({ model, seed, step, batch });
    const xs = [], pres = [], acts = [];
    let x = inputs;
    for (let l = 0; l < layers; ++l) {
      const { pre, act } = core.blockInForward(x, params[2 * l], batch, width, activation);
      const y = core.blockOutForward(act, params[2 * l + 1], batch, width);
      xs.push(x); pres.push(pre); acts.push(act);
      x = residual ? add(x, y) : y;
    }
    const { loss, grad } = core.mseLoss(x, targets);
    losses.push(loss);
    const grads = new Array(2 * layers);
    let dy = grad;
    for (let l = layers - 1; l >= 0; --l) {
      const { dWOut, dA } = core.blockOutBackward(dy, acts[l], params[2 * l + 1], batch, width);
      const { dWIn, dX } = core.blockInBackward(dA, pres[l], xs[l], params[2 * l], batch, width, activation);
      grads[2 * l] = dWIn;
      grads[2 * l + 1] = dWOut;
      dy = residual ? add(dX, dy) : dX;
    }
    for (let i = 0; i < params.length; ++i) {
      const r = core.optimizerStep(optimizer, step + 1, params[i], grads[i], state[i].m, state[i].v);
      params[i] = r.w;
      state[i] = { m: r.m, v: r.v };
    }
  }
  return { losses, params };
}

test("a JS loop over the kernels reproduces trainSingle (sgd and adam) to 1e-12", async () => {
  const core = await loadCore();
  const runs = [
    { model: { layers: 3, width: 6, hidden: 10, activation: "gelu", residual: true },
      optimizer: { kind: "sgd", lr: 0.05 }, batch: 8, steps: 5, seed: 7 },
    { model: { layers: 2, width: 5, hidden: 12, activation: "tanh", residual: false },
      optimizer: { kind: "adam", lr: 0.01 }, batch: 6, steps: 5, seed: 3 },
    { model: { layers: 2, width: 4, hidden: 8, activation: "relu", residual: true },
      optimizer: { kind: "adam", lr: 0.02, weightDecay: 0.01 }, batch: 4, steps: 5, seed: 21 },
  ];
  for (const run of runs) {
    const what = `${run.optimizer.kind}/${run.model.activation}`;
    const ref = core.trainSingle(run);
    assert.ok(ref.losses instanceof Float64Array);
    assert.equal(ref.losses.length, run.steps);
    assert.equal(ref.params.length, 2 * run.model.layers);
    const js = jsTrain(core, run);
    closeArrays(js.losses, ref.losses, 1e-12, `${what} losses`);
    ref.params.forEach((p, i) => closeArrays(js.params[i], p, 1e-12, `${what} params[${i}]`));
    assert.ok(ref.losses[run.steps - 1] < ref.losses[0], `${what}: the loss falls`);
  }
});

test("trainSingle is trainCompare's single-device reference", async () => {
  const core = await loadCore();
  const model = { layers: 2, width: 4, hidden: 8, activation: "gelu", residual: true };
  const optimizer = { kind: "adam", lr: 0.01 };
  const single = core.trainSingle({ model, optimizer, batch: 8, steps: 4, seed: 5 });
  const compare = core.trainCompare({ strategy: "dp", grid: { dp: 2 }, model, optimizer, batch: 8, steps: 4, seed: 5 });
  assert.deepEqual(single.losses, compare.singleLosses);
});
