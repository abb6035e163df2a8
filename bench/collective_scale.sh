#!/usr/bin/env bash
# collective_scale.sh — the whole `dsml collective` process for a ring all-reduce of 1 MiB on 256, 1024 and 4096
# ranks (the schedule made step by step, dsml/lazy_schedule.h): wall clock (the minimum of RUNS runs), peak RSS
# (/usr/bin/time -v), and, with CALLGRIND=1, the instructions the 256-rank run executes (load-independent).
#   bash bench/collective_scale.sh                    (after a native build: build/native/dsml)
#   DSML=/other/build/native/dsml RUNS=3 CALLGRIND=1 RANKS="256 1024" bash bench/collective_scale.sh
#   RUNS=1 RANKS=256 bash bench/collective_scale.sh     (the small size bench/smoke.mjs runs)
# Wall clock is only meaningful on a quiet machine: the load average (/proc/loadavg) is printed before and after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dsml="${DSML:-$root/build/native/dsml}"
runs="${RUNS:-5}"
echo "load before: $(cut -d" " -f1-3 /proc/loadavg)"
printf '%6s  %12s  %12s  %10s  %s\n' ranks "wall min s" "peak RSS MB" messages simulated_s
for p in ${RANKS:-256 1024 4096}; do
  args=(collective --collective all-reduce --algorithm ring --ranks "$p" --bytes 1048576 --alpha 5e-6 --bandwidth 25e9)
  best="" rss=0 out=""
  for _ in $(seq "$runs"); do
    log="$(mktemp)"
    out="$(/usr/bin/time -v "$dsml" "${args[@]}" 2>"$log")"
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$log")"
    kb="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")"
    rm -f "$log"
    if [ -z "$best" ] || awk "BEGIN {exit !($wall < $best)}"; then best="$wall"; fi
    [ "$kb" -gt "$rss" ] && rss="$kb"
  done
  messages="$(sed -n 's/.*"messages": \([0-9]*\).*/\1/p' <<<"$out")"
  simulated="$(sed -n 's/.*"simulated_s": \([0-9.e-]*\).*/\1/p' <<<"$out")"
  printf '%6s  %12s  %12.1f  %10s  %s\n' "$p" "$best" "$(awk "BEGIN {print $rss / 1024}")" "$messages" "$simulated"
done
if [ "${CALLGRIND:-0}" = 1 ]; then
  refs="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$dsml" collective --collective all-reduce \
    --algorithm ring --ranks 256 --bytes 1048576 --alpha 5e-6 --bandwidth 25e9 2>&1 >/dev/null |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
  echo "callgrind, 256 ranks: $refs instructions"
fi
echo "load after: $(cut -d" " -f1-3 /proc/loadavg)"
