#!/usr/bin/env bash
# One fp32 training step of the residual GELU MLP (forward + backward + SGD; D=512 F=2048 L=4 B=64 unless told),
# one thread each: Eigen native; Eigen in wasm (Node) as the core is compiled, and — if built — with Eigen's SSE
# kernels translated to wasm SIMD; TensorFlow.js wasm in Node as tfjs runs best (every product on XNNPACK) and as
# the step is written (transpose flags, which send 4 of 6 products to tfjs's scalar loop). Builds nothing; first:
#   cmake --build build/native -j2 --target mlp_step
#   NODE_PATH=/usr/share/nodejs cmake --build build/wasm -j2 --target mlp_step_wasm [mlp_step_wasm_sse]
#   bash bench/mlp_step.sh [--width 512 --hidden 2048 --layers 4 --batch 64 --repeats 20]     (RUNS=3 by default)
# Each program prints the median of its timed steps; runs are interleaved (native, wasm, tfjs, … again) so a busy
# neighbour hurts all of them alike; the table shows the median over RUNS runs (and the fastest single step).
set -euo pipefail
export NODE_PATH=/usr/share/nodejs
cd "$(dirname "$0")/.."
native=build/native/mlp_step
wasm=build/wasm/bench/mlp_step.cjs
sse=build/wasm/bench/mlp_step_sse.cjs
for f in "$native" "$wasm"; do
  [ -f "$f" ] || { echo "missing $f — build it first (see the top of $0)" >&2; exit 1; }
done
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "${RUNS:-3}"); do
  "$native" "$@" >> "$out"
  node "$wasm" "$@" >> "$out"
  if [ -f "$sse" ]; then node "$sse" "$@" >> "$out"; fi
  node bench/mlp_step_tfjs.mjs --variant xnn "$@" >> "$out"
  # ~10× slower than the rest: five steps are plenty to time it.
  node bench/mlp_step_tfjs.mjs --variant flags "$@" --repeats 5 --warmup 1 >> "$out"
done
node - "$out" <<'EOF'
const lines = require("fs").readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const rows = {};
for (const r of lines) (rows[r.impl] ??= { ...r, all: [], mins: [] }).all.push(r.seconds_per_step);
for (const r of lines) rows[r.impl].mins.push(r.min_seconds);
for (const r of Object.values(rows)) r.seconds = median(r.all);
const { width, hidden, layers, batch, flops_per_step: flops } = lines[0];
const native = rows["eigen-native"].seconds;
console.log(`D=${width} F=${hidden} L=${layers} B=${batch}, fp32, 1 thread, ${(flops / 1e9).toFixed(2)} GFLOP per ` +
  `step (products only); median over ${rows["eigen-native"].all.length} runs of each program's median step`);
console.log("impl                ms/step  (fastest)  GFLOP/s  × native  loss       grad sum   notes");
for (const [impl, r] of Object.entries(rows)) {
  const notes = r.binary ? `${r.binary}, ${r.threads} thread` : `Eigen SIMD: ${r.eigen_simd}`;
  console.log(`${impl.padEnd(18)} ${(r.seconds * 1e3).toFixed(1).padStart(8)} ` +
    `${`(${(Math.min(...r.mins) * 1e3).toFixed(1)})`.padStart(10)} ${(flops / r.seconds / 1e9).toFixed(2)
    .padStart(8)} ${(native / r.seconds).toFixed(2).padStart(9)}  ${r.loss.toPrecision(7).padEnd(10)} ` +
    `${r.grad_checksum.toPrecision(6).padEnd(10)} ${notes}`);
}
for (const w of ["eigen-wasm", "eigen-wasm-sse"].filter((impl) => rows[impl])) {
  const s = rows[w].seconds;
  console.log(`${w}: ${(native / s).toFixed(2)} × native speed (target ≥ 0.5), ` +
    `${(rows["tfjs-wasm-xnn"].seconds / s).toFixed(2)} × tfjs-wasm-xnn, ` +
    `${(rows["tfjs-wasm-flags"].seconds / s).toFixed(2)} × tfjs-wasm-flags (target ≥ 1)`);
}
EOF
