#!/usr/bin/env bash
# kubectl against rrgen-cluster --cert-manager: an rrgen operator's config/certmanager (a
# selfSigned Issuer and the webhook's serving Certificate) applied with strict validation, waited
# for, listed with cert-manager's columns; its Secret's certificate carries the SANs (openssl);
# a ValidatingWebhookConfiguration gets the CA injected, again after kubectl replace clears it.
# Needs kubectl and openssl: exits 77 (skipped) otherwise.
#   kubectl_cert_manager_e2e.sh RRGEN_CLUSTER
set -euo pipefail
cluster_bin=$1
skip() { echo "kubectl cert-manager e2e: SKIPPED: $*"; exit 77; }
kubectl=$(command -v kubectl) || skip "no kubectl"
command -v openssl >/dev/null || skip "no openssl"

work=$(mktemp -d)
cluster_pid=""
cleanup() {
  if [[ -n $cluster_pid ]]; then kill -TERM "$cluster_pid" 2>/dev/null || true; wait "$cluster_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "kubectl cert-manager e2e: FAILED: $*"; echo "--- rrgen-cluster log:"; cat "$work/cluster.log" || true; exit 1; }
trap 'fail "a command failed at line $LINENO"' ERR

"$cluster_bin" --cert-manager --kubeconfig-out "$work/kubeconfig" >"$work/cluster.log" 2>&1 &
cluster_pid=$!
for _ in $(seq 1 200); do
  grep -q '^rrgen-cluster serving' "$work/cluster.log" 2>/dev/null && break
  kill -0 "$cluster_pid" 2>/dev/null || fail "rrgen-cluster exited"
  sleep 0.05
done
grep -q '^cert-manager subset: ' "$work/cluster.log" || fail "no cert-manager line"
k() { KUBECONFIG=$work/kubeconfig KUBECACHEDIR=$work/cache timeout 30 "$kubectl" "$@"; }
expect() {  # NAME EXPECTED ACTUAL
  [[ $3 == "$2" ]] || fail "$1: expected [$2], got [$3]"
  echo "ok: $1"
}

k create namespace webapp-system >/dev/null || fail "create namespace"
cat >"$work/certmanager.yaml" <<'YAML'
apiVersion: cert-manager.io/v1
kind: Issuer
metadata:
  name: webapp-selfsigned-issuer
  namespace: webapp-system
spec:
  selfSigned: {}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: webapp-serving-cert
  namespace: webapp-system
spec:
  dnsNames:
  - webapp-webhook-service.webapp-system.svc
  - webapp-webhook-service.webapp-system.svc.cluster.local
  issuerRef:
    kind: Issuer
    name: webapp-selfsigned-issuer
  secretName: webapp-webhook-server-cert
YAML
k apply --validate=strict -f "$work/certmanager.yaml" >"$work/apply.log" 2>&1 || fail "kubectl apply: $(cat "$work/apply.log")"
echo "ok: kubectl apply --validate=strict"
k -n webapp-system wait --for=condition=Ready certificate/webapp-serving-cert --timeout=20s >/dev/null ||
  fail "not Ready: $(k -n webapp-system get certificate webapp-serving-cert -o yaml)"
echo "ok: kubectl wait --for=condition=Ready"

# sed reads to the end: head would close the pipe early and kubectl's SIGPIPE fail the pipeline.
header=$(k -n webapp-system get certificate | sed -n 1p | tr -s ' ')
expect "kubectl get certificate columns" "NAME READY SECRET AGE" "$header"
row=$(k -n webapp-system get cert -o wide --no-headers | tr -s ' ' | cut -d' ' -f1-4)
expect "kubectl get cert -o wide" "webapp-serving-cert True webapp-webhook-server-cert webapp-selfsigned-issuer" "$row"
expect "kubectl get issuer" "webapp-selfsigned-issuer True" \
  "$(k -n webapp-system get issuer --no-headers | tr -s ' ' | cut -d' ' -f1-2)"

k -n webapp-system get secret webapp-webhook-server-cert -o jsonpath='{.data.tls\.crt}' | base64 -d >"$work/tls.crt" ||
  fail "no tls.crt"
sans=$(openssl x509 -in "$work/tls.crt" -noout -ext subjectAltName | tail -1 | tr -d ' ')
expect "subjectAltName" "DNS:webapp-webhook-service.webapp-system.svc,DNS:webapp-webhook-service.webapp-system.svc.cluster.local" "$sans"
expect "secret type" "kubernetes.io/tls" "$(k -n webapp-system get secret webapp-webhook-server-cert -o jsonpath='{.type}')"

# The CA injector: the webhook configuration as the generated config/default writes it.
cat >"$work/webhook.yaml" <<'YAML'
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: webapp-validating-webhook-configuration
  annotations:
    cert-manager.io/inject-ca-from: webapp-system/webapp-serving-cert
webhooks:
- name: vwebapp.example.dev
  admissionReviewVersions: ["v1"]
  sideEffects: None
  failurePolicy: Fail
  clientConfig:
    service:
      name: webapp-webhook-service
      namespace: webapp-system
      path: /validate
  rules:
  - apiGroups: ["example.dev"]
    apiVersions: ["v1"]
    operations: ["CREATE"]
    resources: ["webapps"]
YAML
ca=$(k -n webapp-system get secret webapp-webhook-server-cert -o jsonpath='{.data.ca\.crt}')
injected() {
  for _ in $(seq 1 100); do
    [[ $(k get validatingwebhookconfiguration webapp-validating-webhook-configuration \
      -o jsonpath='{.webhooks[0].clientConfig.caBundle}') == "$ca" ]] && return 0
    sleep 0.1
  done
  return 1
}
k apply -f "$work/webhook.yaml" >/dev/null || fail "kubectl apply webhook"
injected || fail "caBundle not injected"
echo "ok: caBundle injected"
k replace -f "$work/webhook.yaml" >/dev/null || fail "kubectl replace webhook"
injected || fail "caBundle not injected after kubectl replace"
echo "ok: caBundle injected again after kubectl replace"

echo "kubectl cert-manager e2e: PASSED"
