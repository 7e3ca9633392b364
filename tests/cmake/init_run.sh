#!/usr/bin/env bash
# cmake.init.run: `cmake --workflow --preset run` in a project `rrgen init` made (configured and
# built by cmake.init in PROJECT_DIR/build, the presets' build directory) configures, builds and
# starts the operator with its embedded local cluster, as the README's one command; kubectl applies the sample object with the kubeconfig
# the target printed, and the object gets its status from the operator (observedGeneration 1 and
# the Ready condition); SIGTERM stops the operator cleanly. Exit 77 (skipped) without kubectl.
#
#   init_run.sh CMAKE PROJECT_DIR BUILD_DIR SAMPLE_NAME PLURAL
set -euo pipefail
cmake=$1 project=$2 build=$3 name=$4 plural=$5
kubectl=${KUBECTL:-kubectl}
if ! command -v "$kubectl" >/dev/null 2>&1; then
  echo "cmake.init.run: no kubectl; skipped"
  exit 77
fi

log="$build/run.log"
pgid=""
stop() {
  if [[ -n $pgid ]]; then kill -TERM -- "-$pgid" 2>/dev/null || true; wait "$pgid" 2>/dev/null || true; pgid=""; fi
}
trap stop EXIT
start=$(date +%s.%N)
# A process group of its own: SIGTERM reaches the operator under cmake and ninja, as Ctrl-C would.
(cd "$project" && exec setsid "$cmake" --workflow --preset run) >"$log" 2>&1 &
pgid=$!

# The target prints the kubeconfig before the operator starts; the file appears once the server answers.
kubeconfig=""
for _ in $(seq 1 300); do
  kubeconfig=$(sed -n 's/^rrgen: starting.*export KUBECONFIG=\(.*\)$/\1/p' "$log" | head -n 1)
  [[ -n $kubeconfig && -s $kubeconfig ]] && break
  sleep 0.1
done
if [[ -z $kubeconfig || ! -s $kubeconfig ]]; then
  echo "the run workflow printed no kubeconfig, or the operator did not write it:"; cat "$log"; exit 1
fi
export KUBECONFIG=$kubeconfig

"$kubectl" apply -f "$project/samples/$name.yaml"
status=""
for _ in $(seq 1 300); do
  status=$("$kubectl" get "$plural" "$name-sample" -n default \
    -o jsonpath='{.status.observedGeneration} {.status.conditions[?(@.type=="Ready")].type}' 2>/dev/null || true)
  [[ $status == "1 Ready" ]] && break
  sleep 0.1
done
end=$(date +%s.%N)
if [[ $status != "1 Ready" ]]; then
  echo "the sample got no status from the operator (got '$status'):"
  "$kubectl" get "$plural" "$name-sample" -n default -o yaml || true
  cat "$log"; exit 1
fi
"$kubectl" get "$plural" "$name-sample" -n default -o jsonpath='{.status}{"\n"}'
awk -v s="$start" -v e="$end" 'BEGIN { printf "workflow start to reconciled status: %.1f s\n", e - s }'

stop
trap - EXIT
# The wait above is for cmake: the operator, signalled with it, may log its exit a moment later.
for _ in $(seq 1 50); do
  grep -q '"msg":"stopped","exitCode":"0"' "$log" && break
  sleep 0.1
done
if ! grep -q '"msg":"stopped","exitCode":"0"' "$log"; then
  echo "the operator did not stop cleanly on SIGTERM:"; tail -n 5 "$log"; exit 1
fi
echo "operator stopped cleanly"
