#!/usr/bin/env bash
# One fp32 training step of the residual GELU MLP (forward + backward + SGD; D=512 F=2048 L=4 B=64 unless told),
# one thread each, side by side in one run:
#   eigen-native, eigen-wasm   the core's step with Eigen's products (as the core was before dsml/gemm.h)
#   dsml-native, dsml-wasm     the same step with the core's own GEMM (AVX2/FMA natively if the CPU has it, SIMD128)
#   tfjs-wasm-xnn, -flags      TensorFlow.js wasm in Node: every product on XNNPACK with weights stored pre-transposed
#                              (tfjs at its best), and as the step is written (transpose flags: 4 of 6 products on
#                              tfjs's scalar loop)
#   numpy                      NumPy on one OpenBLAS thread (Debian's python3-numpy; a baseline, never part of the course)
# Builds nothing; first:
#   cmake --build build/native -j2 --target mlp_step
#   NODE_PATH=/usr/share/nodejs cmake --build build/wasm -j2 --target mlp_step_wasm
#   bash bench/mlp_step.sh [--width 512 --hidden 2048 --layers 4 --batch 64 --repeats 20]     (RUNS=3 by default)
#   RUNS=1 bash bench/mlp_step.sh --width 32 --hidden 64 --layers 2 --batch 8 --repeats 2 --warmup 1   (bench/smoke.mjs)
# NumPy comes from apt: if /usr/bin/python3 cannot import numpy, this installs python3-numpy and libopenblas0 (as root
# or with sudo); NUMPY=0 skips that row. Each program prints the median of its timed steps; runs are interleaved
# (all programs, then all again) so a busy neighbour hurts them alike; the table shows the median over RUNS runs
# (and the fastest single step). The load average before and after says how busy the machine was.
# Every program's first step is also the check that they compute one thing: its loss and gradient checksum must
# equal eigen-native's to 1e-4 (relative; float32 rounding makes them differ by about 1e-5 at the default size),
# or the script exits 1 after the table.
set -euo pipefail
export NODE_PATH=/usr/share/nodejs
cd "$(dirname "$0")/.."
native=build/native/mlp_step
wasm=build/wasm/bench/mlp_step.cjs
python=/usr/bin/python3
for f in "$native" "$wasm"; do
  [ -f "$f" ] || { echo "error: missing $f — build it first (see the top of $0)" >&2; exit 1; }
done
if [ "${NUMPY:-1}" != 0 ] && ! "$python" -c 'import numpy' 2>/dev/null; then
  echo "installing python3-numpy and libopenblas0 (apt) for the NumPy baseline" >&2
  sudo_if_needed() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
  sudo_if_needed apt-get update -qq
  sudo_if_needed env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    python3-numpy libopenblas0 >/dev/null
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "load before: $(cut -d" " -f1-3 /proc/loadavg)"
for _ in $(seq "${RUNS:-3}"); do
  "$native" --kernel eigen "$@" >> "$out"
  "$native" "$@" >> "$out"
  node "$wasm" --kernel eigen "$@" >> "$out"
  node "$wasm" "$@" >> "$out"
  node bench/mlp_step_tfjs.mjs --variant xnn "$@" >> "$out"
  # ~10× slower than the rest: five steps are plenty to time it.
  node bench/mlp_step_tfjs.mjs --variant flags "$@" --repeats 5 --warmup 1 >> "$out"
  if [ "${NUMPY:-1}" != 0 ]; then OPENBLAS_NUM_THREADS=1 "$python" bench/mlp_step_numpy.py "$@" >> "$out"; fi
done
echo "load after:  $(cut -d" " -f1-3 /proc/loadavg)"
node - "$out" <<'JS'
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
console.log("impl                ms/step  (fastest)  GFLOP/s  × eigen-native  loss       grad sum   notes");
const notes = (r) => r.binary ? `${r.binary}, ${r.threads} thread` : r.blas ? `NumPy ${r.numpy}, ${r.blas}`
  : `GEMM: ${r.gemm}; Eigen SIMD: ${r.eigen_simd}`;
for (const [impl, r] of Object.entries(rows)) {
  console.log(`${impl.padEnd(18)} ${(r.seconds * 1e3).toFixed(1).padStart(8)} ` +
    `${`(${(Math.min(...r.mins) * 1e3).toFixed(1)})`.padStart(10)} ${(flops / r.seconds / 1e9).toFixed(2)
    .padStart(8)} ${(native / r.seconds).toFixed(2).padStart(14)}  ${r.loss.toPrecision(7).padEnd(10)} ` +
    `${r.grad_checksum.toPrecision(6).padEnd(10)} ${notes(r)}`);
}
const speed = (a, b) => (rows[b].seconds / rows[a].seconds).toFixed(2);
for (const w of ["eigen-wasm", "dsml-wasm"]) {
  console.log(`${w}: ${speed(w, "tfjs-wasm-xnn")} × tfjs-wasm-xnn (target ≥ 1), ` +
    `${speed(w, "tfjs-wasm-flags")} × tfjs-wasm-flags`);
}
if (rows.numpy) {
  for (const n of ["eigen-native", "dsml-native"]) console.log(`${n}: ${speed(n, "numpy")} × numpy (target ≥ 0.8)`);
}
const apart = (a, b) => Math.abs(a - b) / Math.abs(b);
const differ = Object.entries(rows).filter(([, r]) => !(apart(r.loss, rows["eigen-native"].loss) <= 1e-4 &&
  apart(r.grad_checksum, rows["eigen-native"].grad_checksum) <= 1e-4)).map(([impl]) => impl);
if (differ.length) {
  console.error(`error: the first step's loss or gradient checksum differs from eigen-native's by more than 1e-4: ${differ.join(", ")}`);
  process.exitCode = 1;
}
JS
