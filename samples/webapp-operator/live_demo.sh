#!/usr/bin/env bash
# The live half of the README's main job: the WebApp operator runs against the embedded local
# cluster (an rr::ApiServer in the operator's process, on 127.0.0.1), and real kubectl drives it:
# the CRD and a WebApp are applied, the operator reconciles over HTTP, the status and children are
# printed, a ConfigMap change rolls the pods, and deletion waits for the finalizer.
#
#   live_demo.sh OPERATOR_BINARY SAMPLE_DIR
set -euo pipefail

operator=$1
sample=$2
kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1; then
  echo "live demo: kubectl is not installed; skipping the live part" >&2
  exit 0
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-live-demo.XXXXXX")
export KUBECONFIG="$work/kubeconfig"
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
k() { printf '$ kubectl %s\n' "$*"; "$kubectl" "$@"; }

step "1. the operator starts with an embedded local cluster (logs: JSON lines on stderr)"
"$operator" --local-cluster-kubeconfig "$KUBECONFIG" \
  --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 2>"$work/operator.log" &
pid=$!
for _ in $(seq 1 100); do [[ -s $KUBECONFIG ]] && break; sleep 0.1; done
if [[ ! -s $KUBECONFIG ]]; then echo "the operator did not start:"; cat "$work/operator.log"; exit 1; fi
k version --output=yaml | grep -E 'gitVersion|serverVersion' || true

step "2. kubectl applies the CRD, then a Namespace, a ConfigMap and a WebApp"
k apply -f "$sample/crds/webapps.yaml"
k wait --for condition=Established crd/webapps.web.example.rrgen.dev --timeout=30s
k apply -f "$sample/manifests/hello.yaml"

step "3. the operator reconciles: status and children"
k wait --for condition=Ready webapp/hello -n demo --timeout=60s
k get webapps -n demo   # the CRD's printer columns, from the local cluster's Table output
k get webapp hello -n demo -o jsonpath='{range .status.conditions[*]}{.type}={.status} {end}{"\n"}url={.status.url} dnsRecord={.status.dnsRecord} availableReplicas={.status.availableReplicas} configHash={.status.configHash}{"\n"}'
k get deployments,services -n demo -o custom-columns='KIND:.kind,NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].kind,REPLICAS:.spec.replicas,IMAGE:.spec.template.spec.containers[0].image'
hash_before=$("$kubectl" get webapp hello -n demo -o jsonpath='{.status.configHash}')

step "4. the ConfigMap changes: the tracker brings the WebApp back and the pods roll"
k patch configmap hello-config -n demo --type merge -p '{"data":{"GREETING":"bonjour"}}'
for _ in $(seq 1 100); do
  hash_after=$("$kubectl" get webapp hello -n demo -o jsonpath='{.status.configHash}')
  [[ $hash_after != "$hash_before" ]] && break
  sleep 0.1
done
echo "configHash: $hash_before -> $hash_after"
[[ $hash_after != "$hash_before" ]] || { echo "the WebApp did not pick up the ConfigMap change"; exit 1; }

step "5. the WebApp is deleted: the finalizer holds it until the DNS record is gone, the children are collected"
k delete webapp hello -n demo --timeout=60s
k get webapps,deployments,services -n demo

step "6. SIGTERM: the operator drains and stops"
kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=""
echo "operator exit code: $rc; the log's last lines:"
tail -n 3 "$work/operator.log"
grep -c '"msg"' "$work/operator.log" | sed 's/^/JSON log lines: /'
[[ $rc -eq 0 ]]
