#!/usr/bin/env bash
# The WebApp webhooks end to end: webapp-operator with its embedded local cluster serves its
# webhooks over TLS, the cluster calls them as the API server does, and kubectl shows what a user
# sees. The webhook configurations, their Service and the CRD's conversion patch are the ones rrgen
# generated (config/webhook, config/crd), with a CA made here in place of cert-manager's:
#   - a WebApp whose image is on the deny-list is refused with the webhook's message;
#   - the defaulting webhook's label appears on a WebApp created without it;
#   - a WebApp written as v1alpha1 reads back as v1 and the other way, and a v1 port (which v1alpha1
#     cannot hold) survives a v1alpha1 read-modify-write.
# Exits 77 (skipped) without kubectl or openssl; each step checks its outcome and stops the script.
#
#   webhooks_e2e.sh OPERATOR_BINARY SAMPLE_DIR CONFIG_DIR
set -euo pipefail

operator=$1
sample=$2
config=$3
kubectl=${KUBECTL:-kubectl}
for tool in "$kubectl" openssl; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "webhooks e2e: $tool is not installed; skipped" >&2
    exit 77
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-webhooks-e2e.XXXXXX")
export KUBECONFIG="$work/kubeconfig"
pid=""
cleanup() {
  if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

step() { printf '\n== %s\n' "$*"; }
k() { printf '$ kubectl %s\n' "$*"; "$kubectl" "$@"; }
fail() { echo "webhooks e2e: FAILED: $*"; echo "--- operator log (last lines)"; tail -n 20 "$work/operator.log"; exit 1; }

service=webapp-webhook-service
namespace=webapp-system

step "1. a CA and the serving certificate for $service.$namespace.svc (cert-manager's job in a cluster)"
mkdir -p "$work/certs"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=webhooks-e2e-ca" \
  -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -subj "/CN=$service.$namespace.svc" \
  -keyout "$work/certs/tls.key" -out "$work/tls.csr" 2>/dev/null
printf 'subjectAltName=DNS:%s.%s.svc,DNS:%s.%s.svc.cluster.local\n' "$service" "$namespace" "$service" "$namespace" >"$work/san.ext"
openssl x509 -req -in "$work/tls.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial -days 1 \
  -extfile "$work/san.ext" -out "$work/certs/tls.crt" 2>/dev/null
ca_bundle=$(base64 -w0 <"$work/ca.crt")
# A free port for the webhook server; the Service's targetPort points there (the local cluster
# reaches a Service's webhook at 127.0.0.1:<targetPort>).
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
echo "webhook server port: $port"

step "2. the operator starts with its embedded local cluster and serves its webhooks"
ENABLE_WEBHOOKS=true "$operator" --local-cluster-kubeconfig "$KUBECONFIG" \
  --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0 \
  --webhook-port "$port" --webhook-cert-dir "$work/certs" 2>"$work/operator.log" &
pid=$!
for _ in $(seq 1 100); do [[ -s $KUBECONFIG ]] && break; sleep 0.1; done
[[ -s $KUBECONFIG ]] || fail "the operator did not start"
grep -q '"Serving webhook server"' "$work/operator.log" || { sleep 1; grep -q '"Serving webhook server"' "$work/operator.log"; } ||
  fail "the operator does not serve its webhooks"

step "3. kubectl applies the generated config: the CRD with its conversion webhook, the webhook configurations and their Service (CA bundle added)"
add_ca() { sed -E "s/^( *)clientConfig:\$/&\n\1  caBundle: $ca_bundle/"; }
"$kubectl" kustomize "$config/crd" | add_ca >"$work/crd.yaml"
k apply -f "$work/crd.yaml"
k wait --for condition=Established crd/webapps.web.example.rrgen.dev --timeout=30s
k create namespace "$namespace"
"$kubectl" kustomize "$config/webhook" | add_ca | sed -E "s/^( *)targetPort: 9443\$/\1targetPort: $port/" >"$work/webhook.yaml"
k apply -f "$work/webhook.yaml"
k create namespace demo
k create configmap webapp-image-policy -n demo --from-literal=denied=evil.example/

step "4. a WebApp with a denied image is refused with the validating webhook's message"
cat >"$work/evil.yaml" <<'YAML'
apiVersion: web.example.rrgen.dev/v1
kind: WebApp
metadata: {namespace: demo, name: evil}
spec: {image: "evil.example/miner:1"}
YAML
# The webhook reads the deny-list from its informer cache: a server-side dry run (admission runs,
# nothing is stored) until the new ConfigMap has reached it.
for _ in $(seq 1 50); do
  "$kubectl" create --dry-run=server -f "$work/evil.yaml" >/dev/null 2>&1 || break
  sleep 0.1
done
if refused=$("$kubectl" create -f "$work/evil.yaml" 2>&1); then fail "the denied WebApp was created: $refused"; fi
echo "$refused"
expected='admission webhook "vwebapp-v1.web.example.rrgen.dev" denied the request: spec.image "evil.example/miner:1" is denied by ConfigMap demo/webapp-image-policy (prefix "evil.example/")'
[[ $refused == *"$expected"* ]] || fail "the refusal does not carry the webhook's message"
if "$kubectl" get webapp evil -n demo >/dev/null 2>&1; then fail "the refused WebApp exists"; fi

step "5. a WebApp created without the app label gets it from the defaulting webhook"
cat >"$work/hello.yaml" <<'YAML'
apiVersion: web.example.rrgen.dev/v1
kind: WebApp
metadata: {namespace: demo, name: hello}
spec: {image: "registry.example/hello:1.0", port: 9090, hostname: hello.example.com}
YAML
k apply -f "$work/hello.yaml"
label=$("$kubectl" get webapp hello -n demo -o 'jsonpath={.metadata.labels.app\.kubernetes\.io/name}')
echo "app.kubernetes.io/name=$label"
[[ $label == hello ]] || fail "the defaulted label is missing"

step "6. written as v1, read as v1alpha1: the hostname under spec.dns, no port"
got=$("$kubectl" get webapps.v1alpha1.web.example.rrgen.dev hello -n demo -o 'jsonpath={.apiVersion} {.spec.dns.hostname} port={.spec.port}{"\n"}')
echo "$got"
[[ $got == "web.example.rrgen.dev/v1alpha1 hello.example.com port=" ]] || fail "v1alpha1 reads differently"

step "7. a v1alpha1 read-modify-write keeps the v1 port, which v1alpha1 cannot hold"
"$kubectl" get webapps.v1alpha1.web.example.rrgen.dev hello -n demo -o json |
  sed 's/"replicas": 1/"replicas": 3/' >"$work/hello_v1alpha1.json"
k replace -f "$work/hello_v1alpha1.json"
got=$("$kubectl" get webapps.v1.web.example.rrgen.dev hello -n demo -o 'jsonpath={.apiVersion} replicas={.spec.replicas} port={.spec.port} {.spec.hostname}{"\n"}')
echo "$got"
[[ $got == "web.example.rrgen.dev/v1 replicas=3 port=9090 hello.example.com" ]] || fail "the round trip lost something"

step "8. written as v1alpha1, read as v1"
cat >"$work/old.yaml" <<'YAML'
apiVersion: web.example.rrgen.dev/v1alpha1
kind: WebApp
metadata: {namespace: demo, name: old}
spec: {image: "registry.example/old:1.0", dns: {hostname: old.example.com}}
YAML
k apply -f "$work/old.yaml"
got=$("$kubectl" get webapps.v1.web.example.rrgen.dev old -n demo -o 'jsonpath={.apiVersion} {.spec.hostname} app={.metadata.labels.app\.kubernetes\.io/name}{"\n"}')
echo "$got"
[[ $got == "web.example.rrgen.dev/v1 old.example.com app=old" ]] || fail "v1 reads differently"

kill -TERM "$pid"
rc=0; wait "$pid" || rc=$?
pid=""
[[ $rc -eq 0 ]] || fail "the operator exited with $rc"
echo "webhooks e2e: PASSED"
