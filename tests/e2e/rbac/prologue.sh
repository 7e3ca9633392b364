# Sourced first by operator_rbac_e2e.sh and rbac_proof.sh: their arguments, the kubectl check
# (exit 77: skipped), a private temporary directory in $work, fail(), and the libraries with the
# sample's scenario.
#   source prologue.sh NAME RRGEN_CLUSTER OPERATOR SAMPLE_DIR CONFIG_DIR
script_name=$1
cluster_bin=$2
operator_bin=$3
sample=$4
config=$5
kubectl=${KUBECTL:-kubectl}
command -v "$kubectl" >/dev/null 2>&1 || { echo "$script_name: kubectl is not installed; skipped" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/rrgen-${script_name// /-}.XXXXXX")

fail() {
  echo "$script_name: FAILED: $*" >&2
  exit 1
}

rbac_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cluster.sh
source "$rbac_dir/cluster.sh"
# shellcheck source=role_rules.sh
source "$rbac_dir/role_rules.sh"
# shellcheck source=scenario.sh
source "$rbac_dir/scenario.sh"
# shellcheck disable=SC1091  # the sample's scenario
source "$sample/rbac_scenario.sh"
