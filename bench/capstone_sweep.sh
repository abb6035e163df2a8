#!/usr/bin/env bash
# The capstone's time-to-target sweep natively, the run the seed course's notebook makes in seconds: SSP with
# staleness 2 through the sharded parameter server, for 1, 2, 4 and 8 workers, plus the 64-worker job it reports on.
#   DSML=build/native/dsml bash bench/capstone_sweep.sh
#   WORKERS=4 SWEEP=1,2 bash bench/capstone_sweep.sh      (the small size bench/smoke.mjs runs: about 2 s)
set -euo pipefail
DSML="${DSML:-$(dirname "$0")/../build/native/dsml}"
TIMEFORMAT='wall %R s, CPU %U s'
time "$DSML" capstone --workers "${WORKERS:-64}" --target-loss 0.1 --sweep-workers "${SWEEP:-1,2,4,8}" --staleness 2 > /dev/null
