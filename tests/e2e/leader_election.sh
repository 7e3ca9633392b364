#!/usr/bin/env bash
# Leader election between two webapp-operator processes against a standalone rrgen-cluster,
# driven by real kubectl:
#   1. both operators start with --leader-elect (lease 3s, renew deadline 2s, retry 500ms);
#   2. exactly one holds the Lease, and only that one reconciles: its
#      controller_runtime_reconcile_total grows, the other's /metrics stays at 0, and the other's
#      log (at debug, where every reconcile logs lines with its reconcileID) shows no reconcile and
#      never starts the controller's workers;
#   3. a WebApp applied becomes Ready;
#   4. the leader is killed with SIGKILL (no lease release): the other takes the Lease over within
#      the lease duration plus retry slack (the takeover time is measured and printed);
#   5. a second WebApp applied after the takeover becomes Ready, reconciled by the new leader,
#      which also reconciles the first one again (a new leader's controller gets every cached
#      object); SIGTERM then stops it with exit code 0.
# E2E_KEEP=1 keeps the temporary directory (logs, kubeconfig) for a look afterwards.
#
#   leader_election.sh RRGEN_CLUSTER WEBAPP_OPERATOR SAMPLE_DIR
# Exit 0: passed; 77: kubectl missing (skipped); anything else: failed.
set -euo pipefail

cluster_bin=$1
operator_bin=$2
sample=$3
kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1; then
  echo "leader election e2e: kubectl is not installed; skipped" >&2
  exit 77
fi

lease_name=webapp.web.example.rrgen.dev
lease_seconds=3
retry_seconds=0.5
# The follower sees the lease expire at most one retry period after the leader's last renewal
# + lease duration, and tries again within one jittered retry period (client-go: up to 2.2 x);
# what is left is for a loaded machine (ctest runs tests in parallel on 2 cores).
takeover_bound=6.5

work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-e2e-election.XXXXXX")
export KUBECONFIG="$work/kubeconfig"
cluster_pid=""
declare -A operator_pid=()
cleanup() {
  local rc=$?
  for name in "${!operator_pid[@]}"; do
    local pid=${operator_pid[$name]}
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; fi
  done
  for name in "${!operator_pid[@]}"; do wait "${operator_pid[$name]}" 2>/dev/null || true; done
  if [[ -n $cluster_pid ]] && kill -0 "$cluster_pid" 2>/dev/null; then
    kill -TERM "$cluster_pid" 2>/dev/null || true
    wait "$cluster_pid" 2>/dev/null || true
  fi
  if [[ $rc -ne 0 ]]; then
    for log in "$work"/*.log; do
      [[ -f $log ]] || continue
      echo "---- last lines of $(basename "$log")"
      tail -n 15 "$log"
    done
  fi
  if [[ -n ${E2E_KEEP:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}
now() { date +%s.%N; }
# seconds between two `now` values, 3 decimals
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
# Polls COMMAND every 0.1 s until it succeeds or SECONDS pass.
wait_until() {
  local seconds=$1
  shift
  local deadline
  deadline=$(awk -v t="$(now)" -v s="$seconds" 'BEGIN { printf "%.3f", t + s }')
  until "$@"; do
    if awk -v t="$(now)" -v d="$deadline" 'BEGIN { exit !(t > d) }'; then return 1; fi
    sleep 0.1
  done
}
# A JSON log field of the first line of LOG that contains TEXT. (No `grep | head`: under
# pipefail, a reader that stops early fails the pipeline with the writer's SIGPIPE.)
log_field() {
  local log=$1 text=$2 field=$3 line
  line=$(grep -m 1 -F "$text" "$log") || return 1
  sed -n "s/.*\"$field\":\"\{0,1\}\([^\",}]*\).*/\1/p" <<<"$line"
}
# The sum of controller_runtime_reconcile_total over every result, from /metrics on PORT.
# Fails when the endpoint does not answer or does not expose the metric.
reconciles() {
  local port=$1 body
  body=$(curl -fsS --max-time 5 "http://127.0.0.1:$port/metrics") || return 1
  grep -q '^controller_runtime_reconcile_total{' <<<"$body" || return 1
  awk '/^controller_runtime_reconcile_total\{/ { s += $2 } END { print s + 0 }' <<<"$body"
}
lease_holder() { "$kubectl" get lease "$lease_name" -n default -o jsonpath='{.spec.holderIdentity}' 2>/dev/null; }
is_ready() {
  [[ $("$kubectl" get webapp "$1" -n demo -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}' 2>/dev/null) == True ]]
}

echo "== a standalone rrgen-cluster (Deployments report their replicas available)"
"$cluster_bin" --kubeconfig-out "$KUBECONFIG" --simulate-workloads >"$work/cluster.log" 2>&1 &
cluster_pid=$!
wait_until 20 grep -q '^rrgen-cluster serving' "$work/cluster.log" || fail "rrgen-cluster did not start"
grep '^rrgen-cluster serving' "$work/cluster.log"

echo "== the WebApp CRD, the demo namespace and its ConfigMap"
"$kubectl" apply -f "$sample/crds/webapps.yaml"
"$kubectl" wait --for condition=Established crd/webapps.web.example.rrgen.dev --timeout=30s
"$kubectl" apply -f - <<'YAML'
apiVersion: v1
kind: Namespace
metadata: {name: demo}
---
apiVersion: v1
kind: ConfigMap
metadata: {namespace: demo, name: hello-config}
data: {GREETING: hello}
YAML

echo "== two operators with --leader-elect"
start_operator() {
  local name=$1
  "$operator_bin" --kubeconfig "$KUBECONFIG" --leader-elect --leader-election-namespace default \
    --leader-elect-lease-duration "${lease_seconds}s" --leader-elect-renew-deadline 2s \
    --leader-elect-retry-period 500ms --metrics-bind-address 127.0.0.1:0 --metrics-secure=false \
    --health-probe-bind-address 127.0.0.1:0 --zap-log-level debug 2>"$work/$name.log" &
  operator_pid[$name]=$!
}
start_operator a
start_operator b
declare -A identity=() metrics_port=()
for name in a b; do
  wait_until 20 grep -q 'attempting to acquire leader lease' "$work/$name.log" || fail "operator $name did not start"
  wait_until 20 grep -q 'Serving metrics server' "$work/$name.log" || fail "operator $name serves no metrics"
  identity[$name]=$(log_field "$work/$name.log" 'attempting to acquire leader lease' identity)
  metrics_port[$name]=$(log_field "$work/$name.log" 'Serving metrics server' port)
  echo "operator $name: pid ${operator_pid[$name]}, identity ${identity[$name]}, metrics port ${metrics_port[$name]}"
done
[[ -n ${identity[a]} && ${identity[a]} != "${identity[b]}" ]] || fail "the identities are empty or equal"

has_holder() { [[ -n $(lease_holder) ]]; }
wait_until 20 has_holder || fail "nobody acquired the lease"
holder=$(lease_holder)
if [[ $holder == "${identity[a]}" ]]; then leader=a follower=b
elif [[ $holder == "${identity[b]}" ]]; then leader=b follower=a
else fail "the lease holder '$holder' is neither operator"; fi
echo "lease $lease_name held by operator $leader ($holder)"
"$kubectl" get lease "$lease_name" -n default \
  -o custom-columns='HOLDER:.spec.holderIdentity,DURATION:.spec.leaseDurationSeconds,TRANSITIONS:.spec.leaseTransitions'

echo "== a WebApp: it becomes Ready, reconciled by the leader only"
cat >"$work/first.yaml" <<'YAML'
apiVersion: web.example.rrgen.dev/v1
kind: WebApp
metadata: {namespace: demo, name: first}
spec: {image: registry.example/first:1.0, replicas: 2, configMapName: hello-config, hostname: first.example.com}
YAML
"$kubectl" apply -f "$work/first.yaml"
"$kubectl" wait --for condition=Ready webapp/first -n demo --timeout=60s
# A few retry periods more, so a second reconciler would have had its chance to show up.
sleep 1.5
leader_reconciles=$(reconciles "${metrics_port[$leader]}") || fail "the leader's /metrics has no reconcile counter"
follower_reconciles=$(reconciles "${metrics_port[$follower]}") || fail "the follower's /metrics has no reconcile counter"
echo "reconciles: leader $leader_reconciles, follower $follower_reconciles"
[[ $leader_reconciles -gt 0 ]] || fail "the leader reconciled nothing"
[[ $follower_reconciles -eq 0 ]] || fail "the follower reconciled while not leading"
grep -q 'successfully acquired lease' "$work/$leader.log" || fail "the leader's log does not say it acquired the lease"
! grep -q 'successfully acquired lease' "$work/$follower.log" || fail "both operators say they acquired the lease"
! grep -q 'Starting workers' "$work/$follower.log" || fail "the follower started its workers"
# At --zap-log-level debug every reconcile logs lines carrying its reconcileID.
leader_lines=$(grep -c '"reconcileID"' "$work/$leader.log" || true)
follower_lines=$(grep -c '"reconcileID"' "$work/$follower.log" || true)
echo "log lines of reconciles: leader $leader_lines, follower $follower_lines"
[[ $leader_lines -gt 0 && $follower_lines -eq 0 ]] || fail "the logs do not show the leader alone reconciling"
[[ $(lease_holder) == "$holder" ]] || fail "the lease changed hands while both ran"

echo "== kill -9 the leader ($leader): the follower takes over"
killed_at=$(now)
kill -KILL "${operator_pid[$leader]}"
wait "${operator_pid[$leader]}" 2>/dev/null || true
operator_pid[$leader]=""
wait_until 30 grep -q 'successfully acquired lease' "$work/$follower.log" || fail "the follower never took over"
acquired_at=$(log_field "$work/$follower.log" 'successfully acquired lease' ts)
takeover=$(elapsed "$killed_at" "$acquired_at")
echo "takeover time: ${takeover}s (lease duration ${lease_seconds}s, retry period ${retry_seconds}s, bound ${takeover_bound}s)"
awk -v t="$takeover" -v b="$takeover_bound" 'BEGIN { exit !(t <= b) }' || fail "the takeover took ${takeover}s"
[[ $(lease_holder) == "${identity[$follower]}" ]] || fail "the lease is not held by the new leader"
"$kubectl" get lease "$lease_name" -n default \
  -o custom-columns='HOLDER:.spec.holderIdentity,DURATION:.spec.leaseDurationSeconds,TRANSITIONS:.spec.leaseTransitions'

echo "== a second WebApp after the takeover: the new leader reconciles it"
cat >"$work/second.yaml" <<'YAML'
apiVersion: web.example.rrgen.dev/v1
kind: WebApp
metadata: {namespace: demo, name: second}
spec: {image: registry.example/second:1.0, replicas: 1, configMapName: hello-config}
YAML
"$kubectl" apply -f "$work/second.yaml"
"$kubectl" wait --for condition=Ready webapp/second -n demo --timeout=60s
is_ready first || fail "the first WebApp is no longer Ready"
new_leader_reconciles=$(reconciles "${metrics_port[$follower]}") || fail "the new leader's /metrics has no reconcile counter"
echo "reconciles by the new leader: $new_leader_reconciles"
[[ $new_leader_reconciles -gt 0 ]] || fail "the new leader reconciled nothing"
# On taking over, the new leader's controller gets every cached WebApp (client-go replays the
# store to new handlers), so it reconciles the first WebApp too, not only the new one.
for app in first second; do
  grep -q "\"name\":\"$app\",\"reconcileID\"" "$work/$follower.log" ||
    fail "the new leader's log shows no reconcile of $app"
done
"$kubectl" get deployments,services -n demo \
  -o custom-columns='KIND:.kind,NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].kind'
[[ $("$kubectl" get deployments -n demo -o name | wc -l) -eq 2 ]] || fail "expected 2 Deployments"
[[ $("$kubectl" get services -n demo -o name | wc -l) -eq 2 ]] || fail "expected 2 Services"

echo "== SIGTERM: the new leader releases the lease and stops"
kill -TERM "${operator_pid[$follower]}"
rc=0
wait "${operator_pid[$follower]}" || rc=$?
operator_pid[$follower]=""
echo "new leader exit code: $rc"
[[ $rc -eq 0 ]] || fail "the operator exited with $rc"
echo "leader election e2e: PASSED"
