#!/usr/bin/env bash
# --kube-api-qps and --kube-api-burst reach the operator's API client: webapp-operator runs
# against its embedded local cluster and its /metrics is read.
#   1. --kube-api-qps=4 --kube-api-burst=1: the informers' first requests (one streaming watch per
#      kind: WebApp, ConfigMap, Deployment, Service) queue on the limiter, so
#      rest_client_rate_limiter_duration_seconds adds up to seconds;
#   2. --kube-api-qps=-1: the limit is off, every request's wait is 0;
#   3. --kube-api-qps=0 is a usage error (exit 2) naming the flag.
# No kubectl: the operator's own requests are what is measured.
#
#   client_rate_limit.sh WEBAPP_OPERATOR
set -euo pipefail

operator=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-e2e-rate-limit.XXXXXX")
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "client rate limit e2e: FAILED: $*"
  [[ -f $work/operator.log ]] && tail -n 20 "$work/operator.log"
  exit 1
}

# The rate-limiter family's _count and _sum over every verb, "count sum", from /metrics.
limiter_figures() {
  local port
  port=$(sed -n 's/.*"Serving metrics server".*"port":"\([0-9]*\)".*/\1/p' "$work/operator.log")
  [[ -n $port ]] || return 1
  exec 3<>"/dev/tcp/127.0.0.1/$port" || return 1
  printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  awk '/^rest_client_rate_limiter_duration_seconds_count\{/ { c += $2 }
       /^rest_client_rate_limiter_duration_seconds_sum\{/ { s += $2 }
       END { printf "%d %.3f\n", c, s }' <&3
  exec 3<&-
}

# Starts the operator with FLAGS, waits for at least MIN requests, stops it and sets count and sum.
measure() {
  local min=$1 figures="" seen=0
  shift
  "$operator" --local-cluster-kubeconfig "$work/kubeconfig" --metrics-bind-address 127.0.0.1:0 --metrics-secure=false \
    --health-probe-bind-address 127.0.0.1:0 "$@" 2>"$work/operator.log" &
  pid=$!
  for _ in $(seq 1 300); do
    if figures=$(limiter_figures 2>/dev/null); then
      seen=${figures%% *}
      ((seen >= min)) && break
    fi
    sleep 0.1
  done
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  pid=""
  ((seen >= min)) || fail "$* : fewer than $min requests in 30 s (last figures: '${figures}')"
  read -r count sum <<<"$figures"
}

echo "== 1. --kube-api-qps=4 --kube-api-burst=1"
count=0 sum=0
measure 4 --kube-api-qps=4 --kube-api-burst=1
echo "requests: $count, seconds waited for the limiter in all: $sum"
# Four requests at 4 a second with no burst to spare wait 0.25 + 0.5 + 0.75 s in all.
awk -v s="$sum" 'BEGIN { exit !(s >= 1.0) }' || fail "with --kube-api-qps=4 the requests waited only ${sum}s"

echo "== 2. --kube-api-qps=-1"
measure 4 --kube-api-qps=-1
echo "requests: $count, seconds waited for the limiter in all: $sum"
awk -v s="$sum" 'BEGIN { exit !(s == 0) }' || fail "with the limit off the requests waited ${sum}s"

echo "== 3. --kube-api-qps=0"
code=0
"$operator" --kube-api-qps=0 >"$work/usage.out" 2>"$work/usage.err" || code=$?
[[ $code -eq 2 ]] || fail "--kube-api-qps=0 exited with $code, not 2"
grep -q 'invalid value for --kube-api-qps: 0 is not a rate' "$work/usage.err" || fail "no message for --kube-api-qps=0: $(head -n 1 "$work/usage.err")"
head -n 1 "$work/usage.err"

echo "client rate limit e2e: PASSED"
