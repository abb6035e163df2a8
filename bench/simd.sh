#!/usr/bin/env bash
# Measures whether -msimd128 speeds up Eigen in wasm: the same matrix product built with and without it,
# run in Node, best of 3 each (SINGLE_FILE: Node 20 cannot fetch a .wasm by path).   bash bench/simd.sh
set -euo pipefail
export NODE_PATH=/usr/share/nodejs
cd "$(dirname "$0")/wasm_simd"
out=$(mktemp -d)
for flavour in scalar simd; do
  flags=(-O3 -I/usr/include/eigen3 -sENVIRONMENT=node -sSINGLE_FILE=1)
  [ "$flavour" = simd ] && flags+=(-msimd128)
  em++ "${flags[@]}" matmul.cpp -o "$out/$flavour.js"
  best=$(for _ in 1 2 3; do node "$out/$flavour.js"; done | sort -n | tail -1)
  echo "$flavour: $best"
done
rm -rf "$out"
