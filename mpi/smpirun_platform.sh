#!/usr/bin/env bash
# smpirun_platform.sh — dsml-mpi-smpi under SimGrid SMPI on one of the shipped platforms, every rank a
# simulated host:
#   bash mpi/smpirun_platform.sh mpi/platforms/torus_16x16.xml -np 64 build/native/mpi/dsml-mpi-smpi train --strategy pp-1f1b --dp 4 --tp 4 --pp 4
# What it adds to smpirun:
#   -hostfile hosts_256.txt          rank r on host-r (without it smpirun takes the hosts in name order:
#                                    host-0, host-1, host-10, host-100, … — neighbours in rank far apart)
#   smpi/privatization:no            one copy of the program for all ranks: dsml keeps no global state
#   smpi/simulate-computation:no     only the network is simulated, so times are deterministic and the
#                                    course's reductions cost nothing, as SMPI's own (set SMPI_COMPUTE=yes to
#                                    charge the measured compute too)
#   log thresholds                   SimGrid's configuration chatter off
set -euo pipefail
platform="$1"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
exec smpirun -platform "$platform" -hostfile "$here/platforms/hosts_256.txt" \
  --cfg=smpi/privatization:no --cfg=smpi/simulate-computation:"${SMPI_COMPUTE:-no}" \
  --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning "$@"
