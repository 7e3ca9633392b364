#!/usr/bin/env bash
# run_bounded.sh SECONDS COMMAND [ARG...]
# Runs COMMAND under `timeout` (which makes itself a process-group leader) and, on every exit
# path of this script, ends that whole process group: whatever the command started (clusters,
# operators, kubectl) cannot outlive the test, even when the command itself is killed. ctest's
# TIMEOUT must be larger than SECONDS, so that this script, not ctest's SIGKILL, ends the run.
set -u
limit=$1
shift
timeout --kill-after=5 "$limit" "$@" &
group=$!
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  kill -TERM -- "-$group" 2>/dev/null || return 0
  for _ in $(seq 1 50); do
    kill -0 -- "-$group" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$group" 2>/dev/null || true
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP
rc=0
wait "$group" || rc=$?
if [[ $rc -eq 124 ]]; then echo "run_bounded: timed out after ${limit}s: $*" >&2; fi
exit "$rc"
