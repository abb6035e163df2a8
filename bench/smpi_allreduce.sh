#!/usr/bin/env bash
# smpi_allreduce.sh — under SimGrid SMPI: the simulated time of the course's ring all-reduce (dsml-mpi-smpi, the
# core's schedule) against SMPI's own ring ("lr": logical-ring reduce-scatter + all-gather) at 64 and 256 ranks on
# the 256-host fat tree and the 16 × 16 torus. Simulated times are deterministic (the network only); the wall
# clock of each simulation is printed too.
#   bash bench/smpi_allreduce.sh            (after bash scripts/test.sh has built build/native/mpi/dsml-mpi-smpi)
#   RANKS=16 SIZES=65536 bash bench/smpi_allreduce.sh    (the small size bench/smoke.mjs runs; RANKS ≤ 256 hosts)
# Exits 1 if a result differs from SMPI's MPI_Allreduce (the table's "verified" column, bench/mpi_table.mjs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/native/mpi/dsml-mpi-smpi"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg)"
for platform in fat_tree_256 torus_16x16; do
  for p in ${RANKS:-64 256}; do
    echo "### $platform, $p ranks"
    for bytes in ${SIZES:-65536 1048576}; do
      start=$(date +%s%N)
      bash "$root/mpi/smpirun_platform.sh" "$root/mpi/platforms/$platform.xml" -np "$p" \
        --cfg=smpi/allreduce:lr --log=smpi_coll.thres:warning --log=smpi_colls.thres:warning \
        "$bin" collective --collective all-reduce --algorithm ring --bytes "$bytes" --repetitions 1 --repeats 3
      echo "$bytes B: the simulation took $(( ($(date +%s%N) - start) / 1000000 )) ms of wall clock" >&2
    done | node "$root/bench/mpi_table.mjs"
    echo
  done
done
