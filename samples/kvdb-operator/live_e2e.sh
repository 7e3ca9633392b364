#!/usr/bin/env bash
# End to end: the KeyValueStore operator runs against its embedded local cluster (an
# rr::ApiServer in the operator's process, on 127.0.0.1) and real kubectl drives it. Every step
# asserts what a real cluster would show, and the script exits non-zero with a message at the
# first thing that is not so:
#   1. the operator starts; the CRD and a KeyValueStore of 3 replicas are applied;
#   2. the Secret, the headless Service, the StatefulSet and the PodDisruptionBudget appear, as
#      desired and controlled by the store; the store becomes Ready;
#   3. the password survives reconciles: one triggered by an annotation on the store, one that
#      puts back a label removed from the Secret (an update of the Secret itself);
#   4. spec.replicas 3 -> 5: the StatefulSet follows, Scaling goes True then False, 5 pods and
#      5 claims;
#   5. spec.image 1.0 -> 1.1: the template follows, Updating goes True then False, currentImage
#      and every pod run 1.1;
#   6. the status is printed, the password is still the first one, SIGTERM stops the operator.
# The last line is "kvdb e2e: PASSED" (what ctest looks for; e2e.kvdb.live in tests/e2e).
#
#   live_e2e.sh OPERATOR_BINARY SAMPLE_DIR
set -euo pipefail

operator=$1
sample=$2
kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1; then
  echo "kvdb e2e: kubectl is not installed; skipped" >&2
  exit 77
fi

ns=kvdb-demo
store=cache
secret=cache-password
image_1_0=registry.example/kvdb:1.0
image_1_1=registry.example/kvdb:1.1
selector=app.kubernetes.io/instance=$store,app.kubernetes.io/name=kvdb

work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-kvdb-e2e.XXXXXX")
export KUBECONFIG="$work/kubeconfig"
pid=""
watcher=""
cleanup() {
  if [[ -n $watcher ]]; then kill "$watcher" 2>/dev/null || true; wait "$watcher" 2>/dev/null || true; fi
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
k() { printf '$ kubectl %s\n' "$*"; "$kubectl" "$@"; }
# A field of an object, "" when the object or the field is missing.
field() { "$kubectl" get -n "$ns" "$1" -o "jsonpath=$2" 2>/dev/null || true; }
fail() {
  echo "kvdb e2e: FAILED: $*" >&2
  echo "--- the store's status transitions:" >&2
  cat "$work/transitions" >&2 2>/dev/null || true
  echo "--- the operator's log (last 20 lines):" >&2
  tail -n 20 "$work/operator.log" >&2 || true
  exit 1
}
expect() {  # expect WHAT ACTUAL EXPECTED
  [[ $2 == "$3" ]] || fail "$1: expected '$3', got '$2'"
  echo "ok: $1 = $2"
}
# wait_for WHAT SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
  local what=$1 seconds=$2
  shift 2
  for _ in $(seq 1 $((seconds * 10))); do
    if "$@"; then echo "ok: $what"; return 0; fi
    sleep 0.1
  done
  fail "$what: not within ${seconds}s"
}
field_is() { [[ $(field "$1" "$2") == "$3" ]]; }

# Every status the store goes through, one line per watch event (the API server sends each
# write), so that a condition that is True only briefly is still seen (no {range}: it ends
# kubectl's watch after the first object):
#   <generation> <observedGeneration> Ready=.. Scaling=.. Updating=.. ready=<n> image=<currentImage>
record_transitions() {
  "$kubectl" get keyvaluestore "$store" -n "$ns" --watch -o \
    'jsonpath={.metadata.generation} {.status.observedGeneration} Ready={.status.conditions[?(@.type=="Ready")].status} Scaling={.status.conditions[?(@.type=="Scaling")].status} Updating={.status.conditions[?(@.type=="Updating")].status} ready={.status.readyReplicas} image={.status.currentImage}{"\n"}' \
    >>"$work/transitions" 2>>"$work/watch.log"
}
# seen_after LINE REGEX: the number of the first transition after line LINE matching REGEX.
seen_after() { awk -v from="$1" -v re="$2" 'NR > from && $0 ~ re { print NR; exit }' "$work/transitions"; }
# wait_transition WHAT SECONDS LINE REGEX: waits for such a transition, prints its line number.
wait_transition() {
  local line=""
  for _ in $(seq 1 $(($2 * 10))); do
    line=$(seen_after "$3" "$4")
    [[ -n $line ]] && break
    sleep 0.1
  done
  [[ -n $line ]] || fail "$1: no status with /$4/ after transition $3 within ${2}s"
  echo "ok: $1 (transition $line: $(sed -n "${line}p" "$work/transitions"))" >&2
  echo "$line"
}
transitions() { wc -l <"$work/transitions"; }
password() { field "secret/$secret" '{.data.password}'; }
# same_password WHEN: the Secret still holds the first password (compared, never printed).
same_password() {
  [[ $(password) == "$first_password" ]] || fail "the password changed $1"
  echo "ok: the password is unchanged $1"
}
# How many reconciles the controller has finished: controller_runtime_reconcile_total from the
# operator's metrics endpoint (its port is in the log; bash's /dev/tcp needs no curl).
reconciles() {
  local port
  port=$(sed -n 's/.*"Serving metrics server".*"port":"\([0-9]*\)".*/\1/p' "$work/operator.log")
  [[ -n $port ]] || fail "the operator's log names no metrics port"
  exec 3<>"/dev/tcp/127.0.0.1/$port"
  printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3
  awk '/^controller_runtime_reconcile_total\{controller="kvdb"/ { n += $2 } END { print n + 0 }' <&3
  exec 3<&-
}
reconciled_since() { [[ $(reconciles) -gt $1 ]]; }

step "1. the operator starts with an embedded local cluster; kubectl applies the CRD and a KeyValueStore"
"$operator" --local-cluster-kubeconfig "$KUBECONFIG" \
  --metrics-bind-address 127.0.0.1:0 --metrics-secure=false --health-probe-bind-address 127.0.0.1:0 \
  2>"$work/operator.log" &
pid=$!
for _ in $(seq 1 100); do [[ -s $KUBECONFIG ]] && break; sleep 0.1; done
[[ -s $KUBECONFIG ]] || fail "the operator did not start"
k apply -f "$sample/crds/keyvaluestores.yaml"
k wait --for condition=Established crd/keyvaluestores.kv.example.rrgen.dev --timeout=30s
k apply -f "$sample/manifests/cache.yaml"
: >"$work/transitions"
record_transitions &
watcher=$!

step "2. the children appear, as desired and controlled by the store; the store becomes Ready"
for child in "secret/$secret" "service/$store" "statefulset/$store" "poddisruptionbudget/$store"; do
  wait_for "$child exists" 60 field_is "$child" '{.metadata.ownerReferences[0].kind}' KeyValueStore
  expect "$child controller" "$(field "$child" '{.metadata.ownerReferences[0].name}/{.metadata.ownerReferences[0].controller}')" "$store/true"
done
k get secrets,services,statefulsets,poddisruptionbudgets -n "$ns" -l "$selector"
expect "Service clusterIP" "$(field "service/$store" '{.spec.clusterIP}')" None
expect "Service port" "$(field "service/$store" '{.spec.ports[0].port}')" 6379
expect "StatefulSet serviceName" "$(field "statefulset/$store" '{.spec.serviceName}')" "$store"
expect "StatefulSet replicas" "$(field "statefulset/$store" '{.spec.replicas}')" 3
expect "StatefulSet image" "$(field "statefulset/$store" '{.spec.template.spec.containers[0].image}')" "$image_1_0"
expect "StatefulSet port" "$(field "statefulset/$store" '{.spec.template.spec.containers[0].ports[0].containerPort}')" 6379
expect "StatefulSet password from" \
  "$(field "statefulset/$store" '{.spec.template.spec.containers[0].env[?(@.name=="KVDB_PASSWORD")].valueFrom.secretKeyRef.name}')" "$secret"
expect "StatefulSet claim template" \
  "$(field "statefulset/$store" '{.spec.volumeClaimTemplates[0].metadata.name} {.spec.volumeClaimTemplates[0].spec.accessModes[0]} {.spec.volumeClaimTemplates[0].spec.resources.requests.storage}')" \
  "data ReadWriteOnce 1Gi"
expect "PodDisruptionBudget maxUnavailable" "$(field "poddisruptionbudget/$store" '{.spec.maxUnavailable}')" 1
first_password=$(password)
[[ $(printf '%s' "$first_password" | base64 -d | wc -c) -eq 32 ]] || fail "the Secret's password is not 32 characters"
echo "ok: the Secret holds a password of 32 characters"
k wait --for condition=Ready "keyvaluestore/$store" -n "$ns" --timeout=120s
expect "status.readyReplicas" "$(field "keyvaluestore/$store" '{.status.readyReplicas}')" 3
expect "status.currentImage" "$(field "keyvaluestore/$store" '{.status.currentImage}')" "$image_1_0"

step "3. the password survives reconciles"
secret_version=$(field "secret/$secret" '{.metadata.resourceVersion}')
before=$(reconciles) || fail "no answer from the operator's metrics endpoint"
k annotate keyvaluestore "$store" -n "$ns" e2e.rrgen.dev/poke="$(date +%s%N)" --overwrite
wait_for "a reconcile after the annotation (controller_runtime_reconcile_total > $before)" 30 reconciled_since "$before"
same_password "after the reconcile"
expect "Secret resourceVersion (nothing written)" "$(field "secret/$secret" '{.metadata.resourceVersion}')" "$secret_version"
# The Secret is owned: its change reconciles the store, whose merge puts the label back and
# keeps the stored password in the same update.
k label secret "$secret" -n "$ns" app.kubernetes.io/managed-by-
wait_for "the Secret's label is put back" 30 field_is "secret/$secret" '{.metadata.labels.app\.kubernetes\.io/managed-by}' kvdb-operator
same_password "after the Secret's update"

step "4. the store scales from 3 to 5: the StatefulSet follows, Scaling goes True then False"
mark=$(transitions)
k patch keyvaluestore "$store" -n "$ns" --type merge -p '{"spec":{"replicas":5}}'
gen=$(field "keyvaluestore/$store" '{.metadata.generation}')
wait_for "StatefulSet replicas 5" 30 field_is "statefulset/$store" '{.spec.replicas}' 5
line=$(wait_transition "Scaling True" 30 "$mark" "^$gen $gen .* Scaling=True ")
wait_transition "Scaling False with 5 ready replicas, Ready" 120 "$line" "^$gen $gen Ready=True Scaling=False .* ready=5 " >/dev/null
expect "Scaling message" "$(field "keyvaluestore/$store" '{.status.conditions[?(@.type=="Scaling")].message}')" "5/5 replicas ready"
expect "StatefulSet readyReplicas" "$(field "statefulset/$store" '{.status.readyReplicas}')" 5
expect "pods" "$("$kubectl" get pods -n "$ns" -l "$selector" -o 'jsonpath={.items[*].metadata.name}' | tr ' ' '\n' | sort | xargs)" \
  "cache-0 cache-1 cache-2 cache-3 cache-4"
expect "claims" "$("$kubectl" get persistentvolumeclaims -n "$ns" -o 'jsonpath={.items[*].metadata.name}' | tr ' ' '\n' | sort | xargs)" \
  "data-cache-0 data-cache-1 data-cache-2 data-cache-3 data-cache-4"

step "5. the image changes to 1.1: the pods roll, Updating goes True then False"
mark=$(transitions)
k patch keyvaluestore "$store" -n "$ns" --type merge -p "{\"spec\":{\"image\":\"$image_1_1\"}}"
gen=$(field "keyvaluestore/$store" '{.metadata.generation}')
wait_for "StatefulSet template image 1.1" 30 field_is "statefulset/$store" '{.spec.template.spec.containers[0].image}' "$image_1_1"
# currentImage names the image being replaced for as long as the rollout runs.
line=$(wait_transition "Updating True, currentImage still 1.0" 30 "$mark" "^$gen $gen .* Updating=True .*image=$image_1_0\$")
wait_transition "Updating False, currentImage 1.1, Ready" 120 "$line" "^$gen $gen Ready=True .* Updating=False ready=5 image=$image_1_1\$" >/dev/null
expect "StatefulSet revisions" "$(field "statefulset/$store" '{.status.currentRevision}')" "$(field "statefulset/$store" '{.status.updateRevision}')"
expect "pod images" "$("$kubectl" get pods -n "$ns" -l "$selector" -o 'jsonpath={.items[*].spec.containers[0].image}' | tr ' ' '\n' | sort -u | xargs)" "$image_1_1"

step "6. the status; the password is still the first one"
k get keyvaluestores -n "$ns"  # the CRD's printer columns
k get keyvaluestore "$store" -n "$ns" -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.reason}: {.message}{"\n"}{end}'
echo "status transitions seen:"
sed 's/^/  /' "$work/transitions"
same_password "after scaling and the rollout"

kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=""
expect "operator exit code" "$rc" 0
echo "kvdb e2e: PASSED"
