#!/usr/bin/env bash
# collective_16k.sh — does the simulator check the planner where the planner is used? A 1 GiB all-reduce (a
# data-parallel gradient) on 4096, 8192 and 16,384 ranks, ring and hierarchical (8 devices per node), each a
# whole `dsml collective` process: wall clock and peak RSS (/usr/bin/time -v), the simulated time, the closed
# form (closed_form_time, the function core/planner/step_planner.cpp prices collectives with) and their relative
# error. The link is the planner's A100 network (planner_presets.cpp): α = 5 µs, 25 GB/s per GPU.
# Then the hierarchical algorithm on the two-level cluster (nodes of 8 GPUs on NVLink, 300 GB/s, 5 µs; one NIC per
# node into the network, 8 × 25 GB/s, 5 µs): simulated time and wall clock/RSS (no closed form on two link speeds).
#   bash bench/collective_16k.sh                                   (after a native build: build/native/dsml)
#   DSML=/other/build/native/dsml RANKS="4096 8192" bash bench/collective_16k.sh
#   RANKS=64 bash bench/collective_16k.sh        (the small size bench/smoke.mjs runs; RANKS: multiples of 8)
# Exits 1 if a simulated time differs from its closed form by more than 1e-12 (relative).
# Wall clock is only meaningful on a quiet machine: the load average (/proc/loadavg) is printed before and after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dsml="${DSML:-$root/build/native/dsml}"
bytes=1073741824  # 2^30: a multiple of 4p for every p here, so the closed forms are exact
link=(--alpha 5e-6 --bandwidth 25e9)
two_level=(--intra-alpha 5e-6 --intra-beta "$(awk 'BEGIN {printf "%.17g", 1 / 300e9}')"
           --inter-alpha 5e-6 --inter-beta "$(awk 'BEGIN {printf "%.17g", 1 / 200e9}')")

mismatch=""   # the rows whose simulated time misses the closed form

field() { sed -n "s/.*\"$1\": \\([0-9.eE+-]*\\).*/\\1/p" <<<"$2"; }

# run LABEL ARGS…: one process, one table row.
run() {
  local label="$1" log out wall kb sim closed messages err
  shift
  log="$(mktemp)"
  out="$(/usr/bin/time -v "$dsml" collective --collective all-reduce --bytes "$bytes" "$@" 2>"$log")"
  wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")"
  cpu="$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$log")"
  kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")"
  rm -f "$log"
  sim="$(field simulated_s "$out")"
  closed="$(field closed_form_s "$out")"
  messages="$(field messages "$out")"
  if [ -n "$closed" ]; then
    err="$(awk "BEGIN {printf \"%.1e\", ($sim - $closed) / $closed}")"
    awk "BEGIN {d = ($sim - $closed) / $closed; exit !(d <= 1e-12 && d >= -1e-12)}" || mismatch+=" $label, $p ranks ($err);"
  else closed="-"; err="-"; fi
  printf '%-26s %7s %8s %8s %9.1f %11s %-12s %-12s %s\n' "$label" "$p" "$wall" "$cpu" "$(awk "BEGIN {print $kb / 1024}")" \
    "$messages" "$sim" "$closed" "$err"
}

echo "load before: $(cut -d" " -f1-3 /proc/loadavg)"
printf '%-26s %7s %8s %8s %9s %11s %-12s %-12s %s\n' algorithm ranks "wall s" "cpu s" "RSS MB" messages simulated_s \
  closed_form_s "rel. error"
for p in ${RANKS:-4096 8192 16384}; do
  run "ring" --algorithm ring --ranks "$p" "${link[@]}"
  run "hierarchical (d = 8)" --algorithm hierarchical --ranks "$p" --devices-per-node 8 "${link[@]}"
  run "hierarchical, 2-level net" --algorithm hierarchical --devices-per-node 8 --topology hierarchical \
    --nodes "$((p / 8))" --per-node 8 "${two_level[@]}"
done
echo "load after: $(cut -d" " -f1-3 /proc/loadavg)"
if [ -n "$mismatch" ]; then echo "simulated time differs from the closed form by more than 1e-12:$mismatch" >&2; exit 1; fi
