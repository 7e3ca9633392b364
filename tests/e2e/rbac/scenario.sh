# Sourced by the RBAC end-to-end scripts (docs/testing-e2e.md): runs one sample's scenario
# (samples/<operator>/rbac_scenario.sh) against a fresh cluster, the operator running as its
# ServiceAccount, and watches for 403s the API server answered that ServiceAccount.
#
# Needs: cluster.sh sourced; $kubectl, $work, $cluster_bin, $operator_bin, $sample, $config;
# fail() from the caller.
#
# The sample's scenario file defines:
#   scenario_crds        CRD files, relative to the sample directory
#   scenario_namespace   the namespace its objects live in
#   scenario_resource    the reconciled resource as kubectl names it (webapps.<group>)
#   scenario_prepare     a function: what exists before the operator starts
#   scenario_steps       step names; step_<name> acts as the admin and waits with wait_step
# Leader election, when config/rbac has a leader-election Role, adds the steps lease_acquired
# (first) and lease_renewed (last), below; secure metrics, when config/rbac has the metrics-auth
# Role, the step metrics_scraped (after the scenario's).

# The message the API server gives when it refuses the ServiceAccount VERB on RESOURCE in GROUP
# (rr::apiserver's forbidden_status, the API server's wording). `update` on a finalizers
# subresource is never asked for directly: the OwnerReferencesPermissionEnforcement admission
# check asks it when a child's owner reference sets blockOwnerDeletion, and refuses the child with
# its own message.
forbidden_text() {  # VERB RESOURCE GROUP
  if [[ $1 == update && $2 == */finalizers ]]; then
    printf "cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on"
    return
  fi
  printf 'User "system:serviceaccount:%s:%s" cannot %s resource "%s" in API group "%s"' \
    "$operator_namespace" "$operator_account" "$1" "$2" "$3"
}
# The same text inside a JSON log line, where quotes are escaped.
json_escaped() { local text=${1//\\/\\\\}; printf '%s' "${text//\"/\\\"}"; }

# Where TEXT shows up: "log", "events", "conditions", space-separated ("" when nowhere). Events
# and the resource's conditions are read as the admin, unless LOG_ONLY is 1 and the log does not
# show it.
surfaced_in() {  # TEXT [LOG_ONLY]
  local text=$1 log_only=${2:-0} places=()
  grep -qF -- "$(json_escaped "$text")" "$work/operator.log" 2>/dev/null && places+=(log)
  if [[ $log_only == 0 || ${#places[@]} -gt 0 ]]; then
    local objects
    # The operator writes events.k8s.io/v1 Events (their text is `note`).
    objects=$(admin get "events.events.k8s.io,$scenario_resource" -A -o \
      'jsonpath={range .items[*]}{.kind}{"\t"}{.note}{range .status.conditions[*]}{.message}{"\t"}{end}{"\n"}{end}' 2>/dev/null || true)
    grep -F -- "$text" <<<"$objects" | grep -q '^Event'$'\t' && places+=(events)
    grep -F -- "$text" <<<"$objects" | grep -qv '^Event'$'\t' && places+=(conditions)
  fi
  printf '%s' "${places[*]}"
}

# In the proof, the 403 a case waits for (forbidden_text of the removed rule); empty in the
# full-role run, where any 403 for the ServiceAccount in the log fails the run.
expected_forbidden=""

# wait_step WHAT SECONDS COMMAND...: polls COMMAND every 0.1 s. Runs inside the scenario's
# subshell and ends it: exit 3 when the expected 403 surfaced (where, in $work/surfaced), exit 1
# when COMMAND did not succeed in time (or, in the full run, a 403 showed up). In the proof a
# step waits at most $proof_step_seconds: with the full role every step takes well under one.
wait_step() {
  local what=$1 seconds=$2 polls=0 places deadline
  shift 2
  [[ -z $expected_forbidden ]] || seconds=$proof_step_seconds
  deadline=$(($(date +%s%N) + seconds * 1000000000))
  while (($(date +%s%N) < deadline)); do
    if [[ -n $expected_forbidden ]]; then
      # The log at every poll; events and conditions (kubectl) at every fifth.
      places=$(surfaced_in "$expected_forbidden" $((polls++ % 5 == 4 ? 0 : 1)))
      [[ -z $places ]] || { printf '%s' "$places" >"$work/surfaced"; exit 3; }
    elif grep -qF " is forbidden: " "$work/operator.log"; then
      echo "FAIL: $what: the API server refused the ServiceAccount:" >&2
      grep -F ' is forbidden: ' "$work/operator.log" | head -n 3 >&2
      exit 1
    fi
    if "$@"; then
      echo "ok: $what"
      return 0
    fi
    sleep 0.1
  done
  # A last look everywhere: the 403 may have come with the failure.
  if [[ -n $expected_forbidden ]]; then
    places=$(surfaced_in "$expected_forbidden")
    [[ -z $places ]] || { printf '%s' "$places" >"$work/surfaced"; exit 3; }
  fi
  echo "FAIL: $what: not within ${seconds}s" >&2
  exit 1
}
proof_step_seconds=10

# What steps check, as the admin, in $scenario_namespace: a field ("" when the object or the field
# is missing), its value, an object's absence, a condition of a reconciled resource as
# "<status> <reason>", the controller of an object, and an Event about NAME counted twice or more
# (an events.k8s.io/v1 series).
field() { admin get -n "$scenario_namespace" "$1" -o "jsonpath=$2" 2>/dev/null || true; }
field_is() { [[ $(field "$1" "$2") == "$3" ]]; }
gone() { ! admin get -n "$scenario_namespace" "$1" >/dev/null 2>&1; }
condition_is() {  # NAME TYPE "<status> <reason>"
  [[ $(field "$scenario_resource/$1" "{.status.conditions[?(@.type==\"$2\")].status} {.status.conditions[?(@.type==\"$2\")].reason}") == "$3" ]]
}
controlled_by() { field_is "$2" '{.metadata.ownerReferences[?(@.controller==true)].name}' "$1"; }  # OWNER OBJECT
event_counted_twice() {  # NAME
  local count
  for count in $(field events.events.k8s.io "{.items[?(@.regarding.name==\"$1\")].series.count}"); do
    [[ $count -ge 2 ]] && return 0
  done
  return 1
}

# Leader election: the Lease the operator holds, in the leader-election Role's namespace.
lease_field() { admin get leases -n "$lease_namespace" -o "jsonpath={.items[0].$1}" 2>/dev/null; }
lease_held() { [[ -n $(lease_field spec.holderIdentity) ]]; }
step_lease_acquired() {
  wait_step "the operator holds the Lease in $lease_namespace" 20 lease_held
  lease_renewed_at=$(lease_field spec.renewTime)
}
lease_renewed_since() { [[ $(lease_field spec.renewTime) != "$lease_renewed_at" ]]; }
step_lease_renewed() {
  wait_step "the operator renews the Lease" 10 lease_renewed_since
}

# start_scenario_cluster: a fresh cluster with the CRDs, config/rbac, and (when given)
# ROLE_YAML applied over the generated role; then scenario_prepare.
start_scenario_cluster() {
  local role_override=${1:-}
  local token_flags=()
  mapfile -t token_flags < <(sa_cluster_flags "$operator_namespace" "$operator_account")
  start_cluster "${token_flags[@]}"
  local crd
  for crd in "${scenario_crds[@]}"; do
    admin apply -f "$sample/$crd" >/dev/null || fail "kubectl apply -f $crd"
  done
  admin wait --for condition=Established crd --all --timeout=30s >/dev/null || fail "the CRDs are not established"
  apply_operator_rbac "$config" "$operator_namespace"
  if [[ -n $role_override ]]; then
    admin apply -f "$role_override" >"$work/role-apply.log" 2>&1 || fail "the reduced role: $(cat "$work/role-apply.log")"
  fi
  sa_kubeconfig "$operator_namespace" "$operator_account"
  scenario_prepare >"$work/prepare.log" 2>&1 || fail "scenario_prepare: $(cat "$work/prepare.log")"
}

# start_operator: the operator as its ServiceAccount (--kubeconfig), with leader election on when
# config/rbac has a leader-election Role (fast timings, so a renewal comes within a second).
start_operator() {
  local flags=(--kubeconfig "$sa_kubeconfig" --metrics-bind-address 127.0.0.1:0 --health-probe-bind-address 127.0.0.1:0)
  if [[ -n $lease_namespace ]]; then
    flags+=(--leader-elect --leader-election-namespace "$lease_namespace" --leader-elect-lease-duration 3s
      --leader-elect-renew-deadline 2s --leader-elect-retry-period 500ms)
  fi
  : >"$work/operator.log"
  "$operator_bin" "${flags[@]}" 2>"$work/operator.log" &
  operator_pid=$!
}

# stop_operator: SIGTERM, and the exit code in $operator_rc.
stop_operator() {
  operator_rc=0
  if [[ -n ${operator_pid:-} ]]; then
    kill -TERM "$operator_pid" 2>/dev/null || true
    wait "$operator_pid" || operator_rc=$?
  fi
  operator_pid=""
}

# Secure metrics: a ServiceAccount bound to the generated metrics-reader ClusterRole scrapes the
# operator's /metrics over HTTPS, which the operator lets through after a TokenReview and a
# SubjectAccessReview (what its metrics-auth Role grants).
metrics_port() { sed -n 's/.*"Serving metrics server".*"port":"\([0-9]*\)".*/\1/p' "$work/operator.log" | head -n 1; }
scrape_ok() {
  local port
  port=$(metrics_port)
  [[ -n $port ]] || return 1
  [[ $(curl -sk -o /dev/null -w '%{http_code}' --max-time 5 -H "Authorization: Bearer $scraper_token" \
    "https://127.0.0.1:$port/metrics") == 200 ]]
}
step_metrics_scraped() {
  admin create serviceaccount metrics-scraper -n "$operator_namespace" >/dev/null 2>&1 || true
  admin create clusterrolebinding metrics-scraper --clusterrole "$metrics_reader_role" \
    --serviceaccount "$operator_namespace:metrics-scraper" >/dev/null 2>&1 || true
  scraper_token=$(admin create token metrics-scraper -n "$operator_namespace")
  wait_step "a ServiceAccount bound to $metrics_reader_role scrapes /metrics over HTTPS" 10 scrape_ok
}

# run_steps: every step in order, in a subshell (wait_step ends it). 0: all passed; 3: the
# expected 403 surfaced (during the step named in $work/step); 1: a step failed.
run_steps() {
  local steps=()
  [[ -z $lease_namespace ]] || steps+=(lease_acquired)
  steps+=("${scenario_steps[@]}")
  [[ -z $metrics_reader_role ]] || steps+=(metrics_scraped)
  [[ -z $lease_namespace ]] || steps+=(lease_renewed)
  (
    for name in "${steps[@]}"; do
      printf '%s' "$name" >"$work/step"
      "step_$name"
    done
  )
}

# The identity and leader election of the operator, from the generated config.
load_operator_config() {
  read -r operator_namespace operator_account < <(sa_identity "$config")
  [[ -n $operator_namespace && -n $operator_account ]] || fail "no ServiceAccount in $config/rbac/service_account.yaml"
  lease_namespace=""
  if [[ -f $config/rbac/leader_election_role.yaml ]]; then
    lease_namespace=$(manifest_field "$config/rbac/leader_election_role.yaml" '{.metadata.namespace}')
  fi
  metrics_reader_role=""
  if [[ -f $config/rbac/metrics_auth_role.yaml ]]; then
    metrics_reader_role=$(manifest_field "$config/rbac/metrics_reader_role.yaml" '{.metadata.name}')
  fi
}
