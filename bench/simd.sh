#!/usr/bin/env bash
# Measures whether -msimd128 speeds up Eigen in wasm: the same matrix product built with and without it,
# run in Node, best of 3 each (SINGLE_FILE: Node 20 cannot fetch a .wasm by path).   bash bench/simd.sh
# The two builds compile at the same time (most of the ~15 s); the runs come after, one at a time.
set -euo pipefail
export NODE_PATH=/usr/share/nodejs
cd "$(dirname "$0")/wasm_simd"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pids=()
for flavour in scalar simd; do
  flags=(-O3 -I/usr/include/eigen3 -sENVIRONMENT=node -sSINGLE_FILE=1)
  [ "$flavour" = simd ] && flags+=(-msimd128)
  em++ "${flags[@]}" matmul.cpp -o "$out/$flavour.js" &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done   # each wait returns its build's status: set -e stops on a failed one
for flavour in scalar simd; do
  best=$(for _ in 1 2 3; do node "$out/$flavour.js"; done | sort -n | tail -1)
  echo "$flavour: $best"
done
