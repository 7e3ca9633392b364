#!/usr/bin/env bash
# An operator deployed as a user deploys it, into the local cluster: its image (rrgen_add_image),
# the local cluster running it as real pods (rrgen-cluster --images, as root: namespaces, a network
# namespace per pod), `kubectl apply -k` of the generated config/default as generated, with RBAC
# enforced and, when config/ has them (webhooks), cert-manager's Issuer and Certificate served
# (--cert-manager). Then:
#   1. the manager Deployment rolls out its replicas; one pod holds the leader Lease;
#   2. the sample object becomes Ready (the webhooks, if any, are called at the pods' addresses);
#   3. `kubectl logs` of the leader shows the operator's log lines;
#   4. /metrics over HTTPS: 200 with the token of a ServiceAccount bound to <app>-metrics-reader,
#      401 without a token, 403 with a token RBAC does not allow;
#   5. the leader's pod is deleted: another replica takes the Lease, and a new object is reconciled;
#   6. a new image tag (the same operator built again as <repository>:v2) rolls the Deployment out.
# Prints the figures it measures ("figure: ..."). Exits 77 (skipped) when not root (pods need
# namespaces for their own addresses) or without kubectl, openssl or curl.
#
#   deployed_e2e.sh NAME RRGEN_CLUSTER RRGEN PRODUCTION_EXE IMAGE_DIR CONFIG_DIR MANIFESTS READY_OBJECT
#     READY_OBJECT   <namespace>/<resource>/<name> in MANIFESTS, waited for condition Ready
set -euo pipefail

name=$1 cluster=$2 rrgen=$3 exe=$4 image_dir=$5 config=$6 manifests=$7 ready_object=$8
kubectl=${KUBECTL:-kubectl}
for tool in "$kubectl" openssl curl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "deployed e2e: $tool is not installed; skipped" >&2
    exit 77
  fi
done
if [[ $(id -u) != 0 ]]; then
  echo "deployed e2e: pods get their own addresses only when the node agent runs as root; skipped" >&2
  exit 77
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-deployed-e2e.XXXXXX")
export KUBECONFIG="$work/kubeconfig"
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }'; }
step() { printf '\n== %s\n' "$*"; }
k() { printf '$ kubectl %s\n' "$*"; "$kubectl" "$@"; }
fail() {
  echo "deployed e2e ($name): FAILED: $*"
  "$kubectl" get pods,deploy,rs,lease -A -o wide 2>&1 | tail -n 20 || true
  "$kubectl" get events -A 2>&1 | tail -n 20 || true
  echo "--- cluster log (last lines)"; tail -n 30 "$work/cluster.log"
  exit 1
}
# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every 0.1 s.
wait_for() {
  local limit=$1 what=$2; shift 2
  local deadline=$(($(date +%s) + limit))
  until "$@" >/dev/null 2>&1; do
    (($(date +%s) < deadline)) || fail "$what (not within ${limit}s)"
    sleep 0.1
  done
}

"$kubectl" kustomize "$config/default" >"$work/install.yaml"
namespace=$(awk '/^kind: Namespace$/ { ns = 1 } ns && /^  name: / { print $2; exit }' "$work/install.yaml")
deployment=$(awk '/^kind: Deployment$/ { d = 1 } d && /^  name: / { print $2; exit }' "$work/install.yaml")
image=$(awk '/^ *image: / { print $2; exit }' "$work/install.yaml")
repository=${image%%@*}
repository=${repository%:*}
[[ -n $namespace && -n $deployment && $image == *@sha256:* ]] ||
  fail "config/default renders no namespace, Deployment or digest-pinned image ($namespace, $deployment, $image)"
replicas=$(awk '/^kind: Deployment$/ { d = 1 } d && /^  replicas: / { print $2; exit }' "$work/install.yaml")
echo "$name: Deployment $namespace/$deployment, $replicas replicas, image $image"

step "0. the image again as $repository:v2 (a new build's tag), and the local cluster given both"
"$rrgen" image --executable "$exe" --image "$repository:v2" --out "$work/v2" --port 8443 --port 8081 --port 9443
# cert-manager's Issuer and Certificate (config/certmanager, for webhooks) only where config/ has them.
cert_manager=()
if grep -q '^apiVersion: cert-manager.io/' "$work/install.yaml"; then cert_manager=(--cert-manager); fi
"$cluster" --port 0 --authorization-mode RBAC --simulate-workloads "${cert_manager[@]}" \
  --images "$image_dir" --images "$work/v2" --node-state-dir "$work/node" \
  --kubeconfig-out "$KUBECONFIG" >"$work/cluster.log" 2>&1 &
pid=$!
wait_for 20 "the local cluster did not start" test -s "$KUBECONFIG"

step "1. kubectl apply -k config/default: the manager rolls out, one replica leads"
started=$(now)
k apply -k "$config/default" >/dev/null
k -n "$namespace" rollout status "deployment/$deployment" --timeout=90s || fail "the manager did not roll out"
rollout_seconds=$(since "$started")
k -n "$namespace" get pods -o wide
ips=$("$kubectl" -n "$namespace" get pods -o jsonpath='{range .items[*]}{.status.podIP}{"\n"}{end}' | sort -u | grep -c .)
[[ $ips == "$replicas" ]] || fail "expected $replicas pods with addresses of their own, found $ips"
leader_of() { "$kubectl" -n "$namespace" get lease -o jsonpath='{.items[0].spec.holderIdentity}' 2>/dev/null; }
has_leader() { [[ -n $(leader_of) ]]; }
# Another pod than $1 holds the Lease.
leader_moved_from() { local h; h=$(leader_of); [[ -n $h && ${h%%_*} != "$1" ]]; }
wait_for 30 "no replica holds the Lease" has_leader
holder=$(leader_of)
leader_pod=${holder%%_*}  # controller-runtime's identity: <hostname>_<uuid>, the hostname the pod's name
"$kubectl" -n "$namespace" get pod "$leader_pod" >/dev/null 2>&1 || fail "the Lease holder $holder is not a pod of $deployment"
echo "leader: $leader_pod"

step "2. the sample object becomes Ready"
IFS=/ read -r ready_ns ready_resource ready_name <<<"$ready_object"
k apply -f "$manifests" >/dev/null
k -n "$ready_ns" wait --for=condition=Ready "$ready_resource/$ready_name" --timeout=60s || fail "$ready_object is not Ready"
if ((${#cert_manager[@]})); then
  # The create went through the webhooks (failurePolicy Fail): at a pod's address, over TLS
  # verified with the CA cert-manager's injector put into the configurations.
  bundles=$("$kubectl" get mutatingwebhookconfigurations,validatingwebhookconfigurations -o jsonpath='{..caBundle}')
  [[ -n $bundles ]] || fail "no caBundle was injected into the webhook configurations"
  echo "webhooks called at the pods' addresses with the injected CA"
fi
first_ready_seconds=$(since "$started")

step "3. kubectl logs shows the leader's log lines"
"$kubectl" -n "$namespace" logs "$leader_pod" >"$work/leader.log"
grep -q 'successfully acquired lease' "$work/leader.log" || fail "the leader's log has no 'successfully acquired lease'"
grep -q 'Starting workers' "$work/leader.log" || fail "the leader's log has no 'Starting workers'"
tail -n 3 "$work/leader.log"

step "4. /metrics over HTTPS with a ServiceAccount's token: allowed, refused without one"
leader_ip=$("$kubectl" -n "$namespace" get pod "$leader_pod" -o jsonpath='{.status.podIP}')
reader_role=$("$kubectl" get clusterrole -o name | grep -- '-metrics-reader$' | head -1)
k create namespace scrapers >/dev/null
k -n scrapers create serviceaccount prometheus >/dev/null
k -n scrapers create serviceaccount stranger >/dev/null
k create clusterrolebinding "$name-scraper" --clusterrole="${reader_role#*/}" --serviceaccount=scrapers:prometheus >/dev/null
token=$("$kubectl" -n scrapers create token prometheus)
stranger=$("$kubectl" -n scrapers create token stranger)
scrape() { curl -sk -o "$work/metrics.txt" -w '%{http_code}' "$@" "https://$leader_ip:8443/metrics"; }
scrape_started=$(now)
code=$(scrape -H "Authorization: Bearer $token")
first_scrape_ms=$(awk -v s="$(since "$scrape_started")" 'BEGIN { printf "%.0f", s * 1000 }')
[[ $code == 200 ]] || fail "a scrape with the allowed token answered $code"
grep -q '^controller_runtime_reconcile_total' "$work/metrics.txt" || fail "the metrics have no controller_runtime_reconcile_total"
code=$(scrape)
[[ $code == 401 ]] || fail "a scrape without a token answered $code, not 401"
code=$(scrape -H "Authorization: Bearer $stranger")
[[ $code == 403 ]] || fail "a scrape with a token RBAC does not allow answered $code, not 403"
echo "200 with prometheus's token, 401 without, 403 with stranger's"

step "5. the leader's pod is deleted: another replica takes over and reconciling goes on"
deleted=$(now)
k -n "$namespace" delete pod "$leader_pod" --wait=false
wait_for 60 "no other replica took the Lease" leader_moved_from "$leader_pod"
failover_seconds=$(since "$deleted")
holder=$(leader_of)
echo "new leader: ${holder%%_*} after ${failover_seconds}s"
"$kubectl" -n "$ready_ns" get "$ready_resource/$ready_name" -o json |
  /usr/bin/python3 -c 'import json, sys
o = json.load(sys.stdin)
o["metadata"] = {"name": o["metadata"]["name"] + "-after-failover", "namespace": o["metadata"]["namespace"]}
o.pop("status", None)
json.dump(o, sys.stdout)' >"$work/again.json"
k create -f "$work/again.json" || fail "cannot create $ready_name-after-failover"
k -n "$ready_ns" wait --for=condition=Ready "$ready_resource/$ready_name-after-failover" --timeout=60s ||
  fail "$ready_name-after-failover is not reconciled by the new leader"
k -n "$namespace" rollout status "deployment/$deployment" --timeout=60s || fail "the deleted pod was not replaced"

step "6. a new image tag rolls the Deployment out"
k -n "$namespace" set image "deployment/$deployment" "manager=$repository:v2"
k -n "$namespace" rollout status "deployment/$deployment" --timeout=90s || fail "the rollout to v2 did not finish"
# The rollout is done once no old replica counts; an old pod may still be terminating (graceful
# deletion: its container stops on SIGTERM), as on a real cluster. It goes shortly after.
pod_images() {
  "$kubectl" -n "$namespace" get pods -o jsonpath='{range .items[*]}{.spec.containers[0].image}{" "}{.status.phase}{"\n"}{end}' | sort -u
}
only_v2() { [[ $(pod_images) == "$repository:v2 Running" ]]; }
wait_for 60 "after the rollout the pods are not all $repository:v2 and Running" only_v2
pod_images
wait_for 60 "no replica of v2 leads" has_leader

echo
echo "figure: $name apply -k to rolled out: ${rollout_seconds}s"
echo "figure: $name apply -k to first $ready_resource Ready: ${first_ready_seconds}s"
echo "figure: $name leader failover after the leader pod's deletion: ${failover_seconds}s"
echo "figure: $name first authenticated scrape (TokenReview + SubjectAccessReview): ${first_scrape_ms} ms"
echo "deployed e2e ($name): PASSED"
