// mlp_step_tfjs.mjs — the TensorFlow.js side of bench/mlp_step.sh: one training step of the residual GELU MLP
// (forward + backward + SGD update), fp32, on @tensorflow/tfjs-backend-wasm in Node: the step of bench/mlp_step.cpp.
//
//   node bench/mlp_step_tfjs.mjs --width 512 --hidden 2048 --layers 4 --batch 64 --repeats 20 [--variant flags]
//
// Per block, x (B, D), W_in (F, D), W_out (D, F):  H = x·W_inᵀ, A = gelu(H), x' = x + A·W_outᵀ;
// loss = mean (x_L − T)²; backward by hand with the formulas of dsml/block_kernels.h, not tf.grad, so both sides
// do the same six products per block (3 · 2·B·D·F · 2·L FLOPs per step): dW_out = dYᵀ·A, dA = dY·W_out,
// dH = dA ⊙ gelu'(H), dW_in = dHᵀ·x, dx = dH·W_in + dY. GELU is the tanh approximation written as ops (tfjs-core
// has no GELU op); gelu' reuses tanh from the forward pass (one op fewer than the C++, which recomputes it).
//
// Variants (--variant):
//   flags  the products as written above, with tf.matMul's transposeA/transposeB. tfjs-backend-wasm sends a
//          product to XNNPACK only when neither flag is set; with a flag it runs its scalar fallback loop
//          (slow_batch_matmul in src/cc/batch_mat_mul_impl.cc) — 4 of the 6 products here.
//   xnn    (default) the same products arranged so that no flag is ever set: weights kept as tf.layers keeps
//          Dense kernels, K_in = W_inᵀ (D, F) and K_out = W_outᵀ (F, D); then dA = (K_out·dYᵀ)ᵀ and
//          dx = (K_in·dHᵀ)ᵀ. The only copies are tf.transpose of activation-sized tensors (≤ B·F): tfjs at
//          its best.
// No tf.grad variant: tfjs-core's Node bundle registers no gradients (they come with the @tensorflow/tfjs union
// package, and its ESM files do not load in Node as they are); its MatMul gradients set the transpose flags anyway.
// The SGD update gives every step fresh weight tensors: XNNPACK operators (with the weights packed) are cached
// by tensor id, and reusing the same weights every step would skip the packing a real training step pays.
//
// Backend: tfjs-backend-wasm picks its binary by feature detection, and in Node its WASM_HAS_MULTITHREAD_SUPPORT
// flag is hard-wired to false (tfjs issue #3830): Node always runs tfjs-backend-wasm-simd.wasm, one thread, when
// SIMD validates. (Forcing the flag on fails: the threaded build starts its Workers from blob: URLs, which Node's
// Worker refuses with ERR_WORKER_PATH.) The JSON reports the binary, SIMD and tfjs's own thread count.
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const tf = require("@tensorflow/tfjs-core");
const wasmBackend = require("@tensorflow/tfjs-backend-wasm");

function parseArgs(argv) {
  const opts = { width: 512, hidden: 2048, layers: 4, batch: 64, repeats: 20, warmup: 3, variant: "xnn" };
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i].replace(/^--/, ""), value = argv[i + 1];
    if (!(key in opts) || value === undefined) throw new Error(`unknown or incomplete option ${argv[i]}`);
    opts[key] = key === "variant" ? value : Number(value);
  }
  if (!["flags", "xnn"].includes(opts.variant)) throw new Error("--variant must be flags or xnn");
  return opts;
}

// The LCG of bench/mlp_step.cpp (Numerical Recipes constants): uniform in [−1, 1) from the top 24 bits.
function makeLcg(seed) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) / 16777216 * 2 - 1;
  };
}

function uniform(rng, rows, cols, scale) {
  const values = new Float32Array(rows * cols);
  for (let i = 0; i < values.length; i++) values[i] = Math.fround(rng()) * Math.fround(scale);
  return tf.tensor2d(values, [rows, cols]);
}

const GELU_C = Math.sqrt(2 / Math.PI), GELU_K = 0.044715;

// gelu(h) = ½·h·(1 + t), t = tanh(c·(h + k·h³)); t is returned for gelu'.
function gelu(h) {
  const t = tf.tanh(tf.mul(GELU_C, tf.add(h, tf.mul(GELU_K, tf.mul(h, tf.square(h))))));
  return { a: tf.mul(tf.mul(0.5, h), tf.add(1, t)), t };
}

// gelu'(h) = ½·(1 + t) + ½·h·(1 − t²)·c·(1 + 3k·h²)
function geluDerivative(h, t) {
  const right = tf.mul(tf.mul(tf.mul(0.5 * GELU_C, h), tf.sub(1, tf.square(t))),
                      tf.add(1, tf.mul(3 * GELU_K, tf.square(h))));
  return tf.add(tf.mul(0.5, tf.add(1, t)), right);
}

function mseGradient(y, target) {
  const diff = tf.sub(y, target);
  return { loss: tf.mean(tf.square(diff)), dy: tf.mul(2 / diff.size, diff) };  // ∂loss/∂y of the mean over B·D
}

// params[l] = { wIn (F, D), wOut (D, F) }; grads in the same layout.
function stepFlags(x0, target, params) {
  const kept = [];
  let x = x0;
  for (const { wIn, wOut } of params) {
    const h = tf.matMul(x, wIn, false, true);                 // (B, F) = x·W_inᵀ
    const { a, t } = gelu(h);
    kept.push({ x, h, a, t });
    x = tf.add(x, tf.matMul(a, wOut, false, true));          // + A·W_outᵀ (B, D)
  }
  let { loss, dy } = mseGradient(x, target);
  const grads = new Array(params.length);
  for (let l = params.length - 1; l >= 0; l--) {
    const { wIn, wOut } = params[l], { x: xl, h, a, t } = kept[l];
    const dWOut = tf.matMul(dy, a, true, false);              // (D, F) = dYᵀ·A
    const dH = tf.mul(tf.matMul(dy, wOut), geluDerivative(h, t));  // dA = dY·W_out (B, F)
    const dWIn = tf.matMul(dH, xl, true, false);              // (F, D) = dHᵀ·x
    dy = tf.add(tf.matMul(dH, wIn), dy);                      // dx = dH·W_in (B, D), plus the identity path
    grads[l] = { wIn: dWIn, wOut: dWOut };
  }
  return { loss, grads };
}

// params[l] = { wIn: K_in = W_inᵀ (D, F), wOut: K_out = W_outᵀ (F, D) }; grads in the same layout.
function stepXnn(x0, target, params) {
  const kept = [];
  let x = x0;
  for (const { wIn, wOut } of params) {
    const h = tf.matMul(x, wIn);                               // (B, F) = x·K_in
    const { a, t } = gelu(h);
    kept.push({ x, h, a, t });
    x = tf.add(x, tf.matMul(a, wOut));                        // + A·K_out (B, D)
  }
  let { loss, dy } = mseGradient(x, target);
  const grads = new Array(params.length);
  for (let l = params.length - 1; l >= 0; l--) {
    const { wIn, wOut } = params[l], { x: xl, h, a, t } = kept[l];
    const dKOut = tf.matMul(tf.transpose(a), dy);             // (F, D) = Aᵀ·dY = dW_outᵀ
    const dA = tf.transpose(tf.matMul(wOut, tf.transpose(dy)));  // (B, F) = (K_out·dYᵀ)ᵀ = dY·W_out
    const dH = tf.mul(dA, geluDerivative(h, t));
    const dKIn = tf.matMul(tf.transpose(xl), dH);             // (D, F) = xᵀ·dH = dW_inᵀ
    dy = tf.add(tf.transpose(tf.matMul(wIn, tf.transpose(dH))), dy);  // (K_in·dHᵀ)ᵀ = dH·W_in, plus identity
    grads[l] = { wIn: dKIn, wOut: dKOut };
  }
  return { loss, grads };
}

const opts = parseArgs(process.argv.slice(2));
const { width: D, hidden: F, layers: L, batch: B } = opts;

// Load the binaries from node_modules (emscripten reads a file path with fs in Node).
wasmBackend.setWasmPaths(path.dirname(require.resolve("@tensorflow/tfjs-backend-wasm")) + path.sep);
if (!(await tf.setBackend("wasm")) || tf.getBackend() !== "wasm") {
  throw new Error("the tfjs wasm backend did not start");
}
const simd = await tf.env().getAsync("WASM_HAS_SIMD_SUPPORT");
const multithread = await tf.env().getAsync("WASM_HAS_MULTITHREAD_SUPPORT");
const binary = simd && multithread ? "tfjs-backend-wasm-threaded-simd.wasm"
  : simd ? "tfjs-backend-wasm-simd.wasm" : "tfjs-backend-wasm.wasm";

const rng = makeLcg(12345);
const x0 = uniform(rng, B, D, 1), target = uniform(rng, B, D, 1);
const initial = [];
for (let l = 0; l < L; l++) {
  const wIn = uniform(rng, F, D, 1 / Math.sqrt(D)), wOut = uniform(rng, D, F, 1 / Math.sqrt(F));
  if (opts.variant !== "xnn") { initial.push({ wIn, wOut }); continue; }
  initial.push({ wIn: tf.transpose(wIn), wOut: tf.transpose(wOut) });
  tf.dispose([wIn, wOut]);
}

const step = opts.variant === "xnn" ? stepXnn : stepFlags;
const lr = 1e-3;
let params = initial;
// One step in tf.tidy, returning the updated weights (kept) and the loss. The wasm backend runs each kernel
// synchronously, so the step is done when this returns; reading the loss back (4 bytes) would catch a backend
// that is not. The gradient checksum (the sum of every gradient entry) is taken on the first step only.
function trainStep(withChecksum) {
  const next = tf.tidy(() => {
    const { loss, grads } = step(x0, target, params);
    const checksum = withChecksum
      ? grads.reduce((s, g) => s + tf.sum(g.wIn).dataSync()[0] + tf.sum(g.wOut).dataSync()[0], 0) : NaN;
    const updated = params.map((p, l) => ({ wIn: tf.sub(p.wIn, tf.mul(lr, grads[l].wIn)),
                                            wOut: tf.sub(p.wOut, tf.mul(lr, grads[l].wOut)) }));
    return { updated, loss: loss.dataSync()[0], checksum };
  });
  if (params !== initial) params.forEach(({ wIn, wOut }) => tf.dispose([wIn, wOut]));
  params = next.updated;
  return next;
}

const first = trainStep(true);
params.forEach(({ wIn, wOut }) => tf.dispose([wIn, wOut]));
params = initial;
for (let i = 1; i < opts.warmup; i++) trainStep(false);
const times = [];
for (let i = 0; i < opts.repeats; i++) {
  const start = process.hrtime.bigint();
  trainStep(false);
  times.push(Number(process.hrtime.bigint() - start) / 1e9);
}
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
const flops = 3 * 2 * B * D * F * 2 * L;
console.log(JSON.stringify({
  impl: `tfjs-wasm-${opts.variant}`, tfjs: tf.version_core, backend: tf.getBackend(), binary, simd,
  threads: wasmBackend.getThreadsCount(), node: process.version,
  width: D, hidden: F, layers: L, batch: B, repeats: opts.repeats,
  seconds_per_step: median, min_seconds: times[0], gflops: flops / median / 1e9, flops_per_step: flops,
  loss: first.loss, grad_checksum: first.checksum, tensors_alive: tf.memory().numTensors,
}));
