#!/usr/bin/env bash
# mpirun_local.sh — mpirun for every rank on THIS machine, robust where CI runs: as root in a container, with no
# ssh and no network interface but loopback, and more ranks than cores.
#   bash mpi/mpirun_local.sh -np 4 build/native/mpi/dsml-mpi collective --collective all-reduce --algorithm ring --bytes 1e6
# Each setting is an Open MPI MCA parameter given through the environment, so a caller can override any of them
# (e.g. OMPI_MCA_btl_vader_single_copy_mechanism=cma for the faster single-copy transfers outside containers).
set -euo pipefail
export OMPI_MCA_plm="${OMPI_MCA_plm:-isolated}"                          # start ranks locally: no ssh/rsh needed
export OMPI_MCA_btl="${OMPI_MCA_btl:-self,vader}"                        # messages through shared memory only
export OMPI_MCA_btl_vader_single_copy_mechanism="${OMPI_MCA_btl_vader_single_copy_mechanism:-none}"  # CMA needs ptrace
export OMPI_MCA_oob_tcp_if_include="${OMPI_MCA_oob_tcp_if_include:-lo}"  # mpirun ↔ ranks over loopback
export OMPI_MCA_mpi_yield_when_idle="${OMPI_MCA_mpi_yield_when_idle:-1}" # waiting ranks give the core away
export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"  # more ranks than cores
export OMPI_MCA_hwloc_base_binding_policy="${OMPI_MCA_hwloc_base_binding_policy:-none}"
# Docker gives /dev/shm 64 MiB: too little for 8 ranks' shared-memory segments, so use /tmp when it is small.
if [ -z "${OMPI_MCA_btl_vader_backing_directory:-}" ]; then
  unset OMPI_MCA_btl_vader_backing_directory
  shm_free_kib="$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')"
  [ "${shm_free_kib:-0}" -ge 1048576 ] || export OMPI_MCA_btl_vader_backing_directory=/tmp
fi
if [ "$(id -u)" -eq 0 ]; then                                            # containers and CI run as root
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
exec mpirun "$@"
