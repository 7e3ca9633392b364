#!/usr/bin/env bash
# kubectl against rrgen-cluster --images: bare pods of a node image run as real processes and
# `kubectl logs` reads them (container, --tail, --timestamps, --previous, -f); a pod of another
# image is simulated Running and has an empty log; `kubectl delete pod` waits for the container;
# a Job and a StatefulSet of the image run their pods.
# Needs root (namespaces), umoci and kubectl: exits 77 (skipped) otherwise.
#   kubectl_logs_e2e.sh RRGEN_CLUSTER TEST_PROGRAM
set -euo pipefail
cluster_bin=$1
program=$2
skip() { echo "kubectl logs e2e: SKIPPED: $*"; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "not root"
command -v umoci >/dev/null || skip "no umoci"
kubectl=$(command -v kubectl) || skip "no kubectl"

work=$(mktemp -d)
cluster_pid=""
cleanup() {
  if [[ -n $cluster_pid ]]; then kill -TERM "$cluster_pid" 2>/dev/null || true; wait "$cluster_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "kubectl logs e2e: FAILED: $*"; echo "--- rrgen-cluster log:"; cat "$work/cluster.log" || true; exit 1; }

# The image: app:v1 with the test program as its Entrypoint.
layout=$work/images/app
bundle=$work/bundle
{
  umoci init --layout "$layout"
  umoci new --image "$layout:v1"
  umoci unpack --image "$layout:v1" "$bundle"
  mkdir -p "$bundle/rootfs/bin"
  cp "$program" "$bundle/rootfs/bin/prog"
  umoci repack --image "$layout:v1" "$bundle"
  umoci config --image "$layout:v1" --config.entrypoint /bin/prog
} >"$work/umoci.log" 2>&1 || fail "umoci: $(cat "$work/umoci.log")"

"$cluster_bin" --insecure-http --simulate-workloads --images "$work/images" --node-state-dir "$work/node" \
  --kubeconfig-out "$work/kubeconfig" >"$work/cluster.log" 2>&1 &
cluster_pid=$!
for _ in $(seq 1 200); do
  grep -q '^rrgen-cluster serving' "$work/cluster.log" 2>/dev/null && break
  kill -0 "$cluster_pid" 2>/dev/null || fail "rrgen-cluster exited"
  sleep 0.05
done
grep -q '^node agent rrgen-node runs the pods of the images in' "$work/cluster.log" || fail "no node agent"
k() { KUBECONFIG=$work/kubeconfig KUBECACHEDIR=$work/cache timeout 30 "$kubectl" "$@"; }
expect() {  # NAME EXPECTED ACTUAL
  [[ $3 == "$2" ]] || fail "$1: expected [$2], got [$3]"
  echo "ok: $1"
}

k run hello --image=app:v1 --restart=Never -- print:one print:two err:three >/dev/null || fail "kubectl run hello"
k wait --for=jsonpath='{.status.phase}'=Succeeded pod/hello --timeout=20s >/dev/null || fail "hello did not succeed: $(k get pod hello -o yaml)"
expect "kubectl logs" $'one\ntwo\nthree' "$(k logs hello)"
expect "kubectl logs --tail=1" "three" "$(k logs hello --tail=1)"
expect "kubectl logs -c hello" $'one\ntwo\nthree' "$(k logs hello -c hello)"
stamped=$(k logs hello --tail=1 --timestamps)
[[ $stamped =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z\ three$ ]] || fail "kubectl logs --timestamps: got [$stamped]"
echo "ok: kubectl logs --timestamps"
wrong=$(k logs hello -c nope 2>&1 || true)
[[ $wrong == *"container nope is not valid for pod hello"* ]] || fail "unknown container: got [$wrong]"
echo "ok: unknown container refused"
expect "image and imageID" "docker.io/library/app:v1 docker.io/library/app@sha256:" \
  "$(k get pod hello -o jsonpath='{.status.containerStatuses[0].image} {.status.containerStatuses[0].imageID}' | cut -c1-54)"

# A crashing container: restarts, and --previous shows the run before.
k run crash --image=app:v1 --restart=Always -- print:crashed exit:2 >/dev/null || fail "kubectl run crash"
for _ in $(seq 1 100); do
  [[ $(k get pod crash -o jsonpath='{.status.containerStatuses[0].restartCount}') -ge 1 ]] && break
  sleep 0.1
done
expect "kubectl logs --previous" "crashed" "$(k logs crash --previous)"

# Following a running container's log.
k run follow --image=app:v1 --restart=Never -- print:first sleep:1500 print:second >/dev/null || fail "kubectl run follow"
k wait --for=jsonpath='{.status.phase}'=Running pod/follow --timeout=20s >/dev/null || fail "follow is not Running"
expect "kubectl logs -f" $'first\nsecond' "$(k logs -f follow)"

# A pod of an image the node does not hold: simulated Running, with an empty log.
k run web --image=nginx:1.25 >/dev/null || fail "kubectl run web"
k wait --for=condition=Ready pod/web --timeout=20s >/dev/null || fail "web is not Ready"
expect "a simulated pod's log" "" "$(k logs web)"

# Graceful deletion: the container gets SIGTERM, the pod goes once it stopped.
k run sleeper --image=app:v1 --restart=Never -- term:0 wait >/dev/null || fail "kubectl run sleeper"
k wait --for=jsonpath='{.status.phase}'=Running pod/sleeper --timeout=20s >/dev/null || fail "sleeper is not Running"
sleep 0.3
start=$(date +%s)
k delete pod sleeper --wait=true >/dev/null || fail "kubectl delete pod sleeper"
(( $(date +%s) - start < 10 )) || fail "deleting sleeper took too long"
gone=$(k get pod sleeper 2>&1 || true)
[[ $gone == *"NotFound"* || $gone == *"not found"* ]] || fail "sleeper is still there: $gone"
echo "ok: graceful delete"

# A Job of the node image: its pods run, `kubectl wait` sees it complete, `kubectl logs job/` reads them.
k create job count --image=app:v1 -- /bin/prog print:counted >/dev/null || fail "kubectl create job"
k wait --for=condition=complete job/count --timeout=30s >/dev/null || fail "job count did not complete: $(k get job count -o yaml)"
expect "job succeeded" "1" "$(k get job count -o jsonpath='{.status.succeeded}')"
expect "kubectl logs job/count" "counted" "$(k logs job/count)"
k create job broken --image=app:v1 -- /bin/prog exit:1 >/dev/null || fail "kubectl create job broken"
k patch job broken --type=merge -p '{"spec":{"backoffLimit":0}}' >/dev/null 2>&1 || true
k wait --for=condition=failed job/broken --timeout=60s >/dev/null || fail "job broken did not fail: $(k get job broken -o yaml)"
echo "ok: a failing job fails"

# A StatefulSet of the node image: pods in order, rolled out as kubectl sees it, scaled down.
k apply -f - >/dev/null <<'YAML' || fail "kubectl apply statefulset"
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 2
  serviceName: db
  selector: {matchLabels: {app: db}}
  updateStrategy: {type: RollingUpdate}
  template:
    metadata: {labels: {app: db}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - {name: db, image: "app:v1", args: ["term:0", "hostname", "wait"]}
YAML
k rollout status statefulset/db --timeout=30s >/dev/null || fail "statefulset db did not roll out: $(k get pods -o wide)"
expect "kubectl logs db-1" "hostname=db-1 HOSTNAME=db-1" "$(k logs db-1)"
k scale statefulset db --replicas=1 >/dev/null || fail "kubectl scale"
for _ in $(seq 1 100); do
  [[ $(k get pods -l app=db -o name | wc -l) -eq 1 ]] && break
  sleep 0.1
done
expect "after scale to 1" "pod/db-0" "$(k get pods -l app=db -o name)"
echo "kubectl logs e2e: PASSED"
