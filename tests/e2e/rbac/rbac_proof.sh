#!/usr/bin/env bash
# Every rule rrgen generated for a sample operator is needed, and together they suffice:
#   - the full role: the sample's scenario (samples/<operator>/rbac_scenario.sh) passes with the
#     operator running as its ServiceAccount (as operator_rbac_e2e.sh does);
#   - then, for each (apiGroup, resource, verb) granted by a Role or ClusterRole of config/rbac,
#     a fresh cluster gets config/rbac with that role applied again without the triple, the
#     operator runs the scenario again, and the case passes when the API server's 403 for exactly
#     that verb, resource and group (`User "system:serviceaccount:<ns>:<name>" cannot <verb>
#     resource "<resource>" in API group "<group>"`) surfaces in the operator's log, an Event or
#     the resource's conditions. A scenario that passes without it means the rule is not needed.
# Prints a table: rule, the step during which the 403 surfaced, where, result. The last line is
# "rbac proof: PASSED" when every rule passed.
#
#   rbac_proof.sh RRGEN_CLUSTER OPERATOR SAMPLE_DIR CONFIG_DIR
# Exit 0: passed; 77: kubectl missing (skipped); anything else: failed. E2E_KEEP=1 keeps the logs.
set -euo pipefail

# shellcheck source=prologue.sh
source "$(dirname "${BASH_SOURCE[0]}")/prologue.sh" "rbac proof" "$@"
root=$work

operator_pid=""
cleanup() {
  if [[ -n $operator_pid ]]; then kill -TERM "$operator_pid" 2>/dev/null || true; wait "$operator_pid" 2>/dev/null || true; fi
  stop_cluster
  if [[ -n ${E2E_KEEP:-} ]]; then echo "kept $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT

# run_case DIR [ROLE_YAML]: the scenario on a fresh cluster (the role applied over config/rbac
# when given). Leaves the outcome of run_steps in $case_rc.
run_case() {
  work=$1
  mkdir -p "$work"
  start_scenario_cluster "${2:-}"
  start_operator
  case_rc=0
  run_steps >"$work/steps.log" 2>&1 || case_rc=$?
  stop_operator
  stop_cluster
}

# print_table ROW...: rows of |-separated cells, in aligned columns.
print_table() {
  local -a width=() cells
  local row i
  for row in "$@"; do
    IFS='|' read -r -a cells <<<"$row"
    for i in "${!cells[@]}"; do ((${#cells[i]} <= ${width[i]:-0})) || width[i]=${#cells[i]}; done
  done
  for row in "$@"; do
    IFS='|' read -r -a cells <<<"$row"
    for i in "${!cells[@]}"; do printf '%-*s  ' "${width[i]}" "${cells[i]}"; done
    printf '\n'
  done
}

load_operator_config
elapsed() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

echo "== the full role: the scenario passes as system:serviceaccount:$operator_namespace:$operator_account"
began=$(date +%s.%N)
run_case "$root/full"
if [[ $case_rc -ne 0 ]]; then
  cat "$root/full/steps.log" >&2
  tail -n 20 "$root/full/operator.log" >&2
  fail "the scenario does not pass with the full generated role"
fi
grep -qF " is forbidden: " "$root/full/operator.log" &&
  fail "the full role's run shows a refused request in the log"
echo "ok: the full role suffices ($(elapsed "$began")s)"

# The roles kustomize deploys (config/rbac/kustomization.yaml's resources), not every file there:
# rrgen analyze's analyzed_role.yaml sits beside them without being deployed.
roles=()
mapfile -t deployed < <(sed -n '/^resources:/,/^[^- ]/s/^- //p' "$config/rbac/kustomization.yaml")
for file in "${deployed[@]/#/$config/rbac/}"; do
  # The scraper's role, not the operator's (step metrics_scraped binds it to its ServiceAccount).
  [[ $(basename "$file") == metrics_reader_role.yaml ]] && continue
  kind=$(manifest_field "$file" '{.kind}')
  [[ $kind == Role || $kind == ClusterRole ]] && roles+=("$file")
done
[[ ${#roles[@]} -gt 0 ]] || fail "no Role or ClusterRole in $config/rbac"

rows=()
failed=0
n=0
for file in "${roles[@]}"; do
  role_name=$(manifest_field "$file" '{.kind}/{.metadata.name}')
  mapfile -t triples < <(role_triples "$file")
  for triple in "${triples[@]}"; do
    read -r group resource verb <<<"$triple"
    group=${group//\"/}
    n=$((n + 1))
    dir=$root/case-$n
    mkdir -p "$dir"
    role_without "$file" "$group" "$resource" "$verb" >"$dir/role.yaml"
    expected_forbidden=$(forbidden_text "$verb" "$resource" "$group")
    began=$(date +%s.%N)
    run_case "$dir" "$dir/role.yaml"
    step=$(cat "$dir/step" 2>/dev/null || true)
    rule="$role_name ${group:-core} $resource $verb"
    case $case_rc in
      3)
        result=pass
        where=$(cat "$dir/surfaced")
        ;;
      0)
        where="-"
        step="(passed)"
        result="FAIL (not needed)"
        ;;
      *)
        where="-"
        result="FAIL (no 403 for it)"
        ;;
    esac
    [[ $result == pass ]] || failed=$((failed + 1))
    printf 'case %d: %s: %s, step %s, surfaced in: %s (%ss)\n' "$n" "$rule" "$result" "$step" "$where" "$(elapsed "$began")"
    if [[ $result == FAIL* ]]; then
      sed 's/^/    /' "$dir/steps.log"
      grep -F 'cannot' "$dir/operator.log" | head -n 3 | sed 's/^/    log: /' || true
    fi
    rows+=("$rule|$step|$where|$result")
  done
done
expected_forbidden=""

echo
echo "== every generated rule, removed in turn"
print_table "RULE|STEP|403 SURFACED IN|RESULT" "${rows[@]}"
echo "rules: $n, failed: $failed"
[[ $failed -eq 0 ]] || fail "$failed rules are not proven needed"
echo "rbac proof: PASSED"
