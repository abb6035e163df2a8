#!/usr/bin/env bash
# mpi_allreduce.sh — on this machine: the course's ring all-reduce run by dsml-mpi (the core's schedule as MPI
# messages) against Open MPI's MPI_Allreduce, 1 KiB … 64 MiB on 2 and 4 processes, with α and β of shared memory
# fitted by the course's ping-pong and the α–β–γ prediction. Wall-clock: run it on a quiet machine.
#   bash bench/mpi_allreduce.sh            (after bash scripts/test.sh has built build/native/mpi/dsml-mpi)
# REPS (default 10) repetitions per size, RANKS (default "2 4") the process counts, TO (default 67108864) the
# largest size; extra MCA settings through the environment, e.g.
#   OMPI_MCA_btl_vader_single_copy_mechanism=cma bash bench/mpi_allreduce.sh
#   RANKS=2 TO=16384 REPS=1 bash bench/mpi_allreduce.sh      (the small size bench/smoke.mjs runs)
# Exits 1 if a result differs from MPI_Allreduce's (the table's "verified" column, bench/mpi_table.mjs).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="$root/build/native/mpi/dsml-mpi"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg)"
for p in ${RANKS:-2 4}; do
  bash "$root/mpi/mpirun_local.sh" -np "$p" "$bin" sweep --collective all-reduce --algorithms ring \
    --from 1024 --to "${TO:-67108864}" --factor 4 --repetitions "${REPS:-10}" | node "$root/bench/mpi_table.mjs"
  echo
done
