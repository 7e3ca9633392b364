#!/usr/bin/env bash
# A sample operator runs as its ServiceAccount with exactly the RBAC rrgen generated for it:
#   1. rrgen-cluster --tls --authorization-mode RBAC --simulate-workloads;
#   2. kubectl, as the cluster admin, applies the sample's CRDs, the ServiceAccount's namespace and
#      the generated config/rbac (ServiceAccount, roles, bindings) unchanged;
#   3. the operator starts with a kubeconfig holding only the ServiceAccount's token (--kubeconfig),
#      with leader election on when config/rbac has a leader-election Role;
#   4. the sample's scenario (samples/<operator>/rbac_scenario.sh) runs step by step; any 403 the
#      API server answered the ServiceAccount fails the run;
#   5. SIGTERM: the operator exits 0.
# The last line is "rbac e2e: PASSED" (what ctest looks for; tests/e2e/CMakeLists.txt).
#
#   operator_rbac_e2e.sh RRGEN_CLUSTER OPERATOR SAMPLE_DIR CONFIG_DIR
# Exit 0: passed; 77: kubectl missing (skipped); anything else: failed. E2E_KEEP=1 keeps the logs.
set -euo pipefail

# shellcheck source=prologue.sh
source "$(dirname "${BASH_SOURCE[0]}")/prologue.sh" "rbac e2e" "$@"

operator_pid=""
cleanup() {
  local rc=$?
  if [[ -n $operator_pid ]]; then kill -TERM "$operator_pid" 2>/dev/null || true; wait "$operator_pid" 2>/dev/null || true; fi
  stop_cluster
  if [[ $rc -ne 0 && -f $work/operator.log ]]; then
    echo "--- the operator's log (last 20 lines):" >&2
    tail -n 20 "$work/operator.log" >&2
  fi
  if [[ -n ${E2E_KEEP:-} ]]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

load_operator_config
echo "== a cluster with TLS and RBAC; kubectl applies the CRDs and $config/rbac"
start_scenario_cluster
admin get serviceaccounts,roles,rolebindings -n "$operator_namespace" -l app.kubernetes.io/name -o name
admin get clusterroles,clusterrolebindings -l app.kubernetes.io/name -o name
echo "== the operator runs as system:serviceaccount:$operator_namespace:$operator_account${lease_namespace:+ (leader election in $lease_namespace)}"
"$kubectl" auth whoami --kubeconfig "$sa_kubeconfig" -o 'jsonpath={.status.userInfo.username}{"\n"}'
start_operator
started=$(date +%s.%N)
echo "== the scenario"
run_steps || fail "the scenario did not pass as the ServiceAccount"
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "scenario time: %.1fs\n", b - a }'
admin get "$scenario_resource" -n "$scenario_namespace" \
  -o 'custom-columns=NAME:.metadata.name,CONDITIONS:.status.conditions[*].reason'

echo "== SIGTERM"
stop_operator
echo "operator exit code: $operator_rc"
[[ $operator_rc -eq 0 ]] || fail "the operator exited with $operator_rc"
! grep -qF "User \\\"system:serviceaccount:$operator_namespace:$operator_account\\\" cannot" "$work/operator.log" || fail "the operator's log shows a refused request"
echo "rbac e2e: PASSED"
