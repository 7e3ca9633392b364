# Sourced by the RBAC end-to-end scripts (docs/testing-e2e.md): a standalone rrgen-cluster with
# TLS and the RBAC authorizer, the operator's ServiceAccount token and its kubeconfig, and the
# generated config/rbac applied by kubectl as the cluster admin.
#
# Needs: $kubectl, $work (a private temporary directory), $cluster_bin; fail() from the caller.
# Sets: $admin_kubeconfig, $sa_kubeconfig, $cluster_pid.

# manifest_field FILE JSONPATH: a field of a manifest, read by kubectl without a server
# (`label --local` decodes the file and prints it through the JSONPath).
manifest_field() {
  "$kubectl" label --local -f "$1" rrgen.dev/read=true --kubeconfig /dev/null -o "jsonpath=$2"
}

# The subject the operator runs as: read from the generated service_account.yaml.
#   sa_identity CONFIG_DIR -> "<namespace> <name>"
sa_identity() { manifest_field "$1/rbac/service_account.yaml" '{.metadata.namespace} {.metadata.name}{"\n"}'; }

# The ServiceAccount's token: the one place that knows how it is obtained. As on a real cluster,
# the admin asks the TokenRequest API for one (`kubectl create token`); the ServiceAccount must
# exist (config/rbac creates it). sa_cluster_flags: what rrgen-cluster needs for it (nothing).
sa_cluster_flags() { :; }
sa_token() {  # NAMESPACE NAME
  admin create token "$2" -n "$1" --duration=1h || fail "kubectl create token $2 -n $1"
}

# start_cluster EXTRA_FLAG...: rrgen-cluster (HTTPS) --authorization-mode RBAC --simulate-workloads,
# its admin kubeconfig (client certificate in system:masters) in $admin_kubeconfig.
# --refuse-watch-list: as a server without WatchList, so the informers fall back to paged lists.
# The generated role must serve such a server too: there `list` is needed as well as `watch`
# (a server that streams the initial list needs only `watch`).
start_cluster() {
  admin_kubeconfig=$work/admin.kubeconfig
  rm -f "$admin_kubeconfig"
  "$cluster_bin" --authorization-mode RBAC --simulate-workloads --refuse-watch-list \
    --kubeconfig-out "$admin_kubeconfig" "$@" \
    >"$work/cluster.log" 2>&1 &
  cluster_pid=$!
  local _
  for _ in $(seq 1 200); do
    grep -q '^rrgen-cluster serving' "$work/cluster.log" 2>/dev/null && return 0
    kill -0 "$cluster_pid" 2>/dev/null || break
    sleep 0.05
  done
  fail "rrgen-cluster did not start: $(cat "$work/cluster.log")"
}

stop_cluster() {
  if [[ -n ${cluster_pid:-} ]] && kill -0 "$cluster_pid" 2>/dev/null; then
    kill -TERM "$cluster_pid" 2>/dev/null || true
    wait "$cluster_pid" 2>/dev/null || true
  fi
  cluster_pid=""
}

# sa_kubeconfig NAMESPACE NAME: the admin kubeconfig's cluster (server, CA) with the
# ServiceAccount's token as its only user, in $sa_kubeconfig.
sa_kubeconfig() {
  sa_kubeconfig=$work/sa.kubeconfig
  cp "$admin_kubeconfig" "$sa_kubeconfig"
  local context
  context=$("$kubectl" config current-context --kubeconfig "$sa_kubeconfig")
  "$kubectl" config set-credentials "$2" --token "$(sa_token "$1" "$2")" --kubeconfig "$sa_kubeconfig" >/dev/null
  "$kubectl" config set-context "$context" --user "$2" --namespace "$1" --kubeconfig "$sa_kubeconfig" >/dev/null
  "$kubectl" config unset "users.$("$kubectl" config view --kubeconfig "$admin_kubeconfig" -o 'jsonpath={.users[0].name}')" \
    --kubeconfig "$sa_kubeconfig" >/dev/null
}

# admin KUBECTL_ARGS...: kubectl as the cluster admin.
admin() { "$kubectl" --kubeconfig "$admin_kubeconfig" "$@"; }

# apply_operator_rbac CONFIG_DIR NAMESPACE: the ServiceAccount's namespace, then config/rbac as
# rrgen wrote it (kustomize: ServiceAccount, roles, bindings).
apply_operator_rbac() {
  admin apply -f - >/dev/null <<YAML || fail "the namespace $2 was not created"
apiVersion: v1
kind: Namespace
metadata: {name: $2}
YAML
  admin apply -k "$1/rbac" >"$work/rbac-apply.log" 2>&1 || fail "kubectl apply -k $1/rbac: $(cat "$work/rbac-apply.log")"
}
