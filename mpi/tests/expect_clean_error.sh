#!/usr/bin/env bash
# expect_clean_error.sh — bad input must end the WHOLE job cleanly: one clear message from rank 0, and every
# rank exiting on its own with code 2 — no rank left waiting for a message that never comes. A timeout proves
# there is no hang.
#   bash mpi/tests/expect_clean_error.sh NP 'expected message' build/native/mpi/dsml-mpi ARGS...
set -uo pipefail
np="$1"; expected="$2"; shift 2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
launch=(timeout 120 bash "$here/../mpirun_local.sh" -np "$np")
fail() { printf 'FAIL: %s\n--- output ---\n%s\n' "$1" "$2"; exit 1; }

# 1. The job: a non-zero exit, in time, and the message exactly once (only rank 0 prints it).
out="$("${launch[@]}" "$@" 2>&1)"; code=$?
[ "$code" -ne 124 ] || fail "the job did not end within 120 s (a rank hangs)" "$out"
[ "$code" -ne 0 ] || fail "the job exited with code 0" "$out"
count="$(grep -c "^dsml-mpi: error: .*$expected" <<<"$out")"
[ "$count" -eq 1 ] || fail "expected one line 'dsml-mpi: error: …$expected…', found $count" "$out"

# 2. Every rank: run each under a shell that reports the rank's own exit code (the shell exits 0, so mpirun
#    does not stop the others first).
out="$("${launch[@]}" sh -c '"$0" "$@"; echo "rank exit code $?"' "$@" 2>&1)"; code=$?
[ "$code" -ne 124 ] || fail "the job did not end within 120 s (a rank hangs)" "$out"
ranks="$(grep -c '^rank exit code 2$' <<<"$out")"
[ "$ranks" -eq "$np" ] || fail "expected all $np ranks to exit with code 2, $ranks did" "$out"
echo "ok: $np ranks exited with code 2; rank 0 said: $(grep '^dsml-mpi: error' <<<"$out")"
