# Sourced by the RBAC proof (docs/testing-e2e.md): the (apiGroup, resource, verb) triples a
# generated Role or ClusterRole grants, and the same role without one of them.
#
# Needs: manifest_field (cluster.sh); fail() from the caller.

# The role's rules, one line each: "<groups>|<resources>|<verbs>", each a comma-separated list
# (the core group is the empty string; | because read would merge empty tab-separated fields).
_role_rule_lines() {
  local text
  text=$(manifest_field "$1" \
    '{range .rules[*]}{.apiGroups}{"\t"}{.resources}{"\t"}{.verbs}{"\t"}{.resourceNames}{.nonResourceURLs}{"\n"}{end}') ||
    fail "cannot read the rules of $1"
  local groups resources verbs rest
  while IFS=$'\t' read -r groups resources verbs rest; do
    # Narrowed rules are not split here: the derivation never writes them (docs/rbac.md).
    [[ -z $rest ]] || fail "$1: a rule with resourceNames or nonResourceURLs ($rest) is not supported by the proof"
    printf '%s|%s|%s\n' "$(_json_list "$groups")" "$(_json_list "$resources")" "$(_json_list "$verbs")"
  done <<<"$text"
}

# ["a","b"] -> a,b   ([""] -> the empty string). Names of groups, resources and verbs hold no
# quotes or commas.
_json_list() {
  local list=${1#[}
  list=${list%]}
  printf '%s' "${list//\"/}"
}

# role_triples ROLE_FILE: "<group> <resource> <verb>" per granted triple, the core group as "".
role_triples() {
  local groups resources verbs group resource verb
  while IFS='|' read -r groups resources verbs; do
    IFS=, read -r -a group_list <<<"$groups,"
    IFS=, read -r -a resource_list <<<"$resources"
    IFS=, read -r -a verb_list <<<"$verbs"
    [[ ${#group_list[@]} -gt 0 ]] || group_list=("")
    for group in "${group_list[@]}"; do
      for resource in "${resource_list[@]}"; do
        for verb in "${verb_list[@]}"; do printf '"%s" %s %s\n' "$group" "$resource" "$verb"; done
      done
    done
  done < <(_role_rule_lines "$1")
}

# role_without ROLE_FILE GROUP RESOURCE VERB: the role (same kind, name and namespace) granting
# every triple of ROLE_FILE but that one, one rule per group and resource, as YAML.
role_without() {
  local file=$1 drop_group=$2 drop_resource=$3 drop_verb=$4 meta
  meta=$(manifest_field "$file" '{.kind} {.metadata.name} {.metadata.namespace}') || fail "cannot read $file"
  local kind name namespace
  read -r kind name namespace <<<"$meta"
  printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: %s\nmetadata:\n  name: %s\n' "$kind" "$name"
  [[ -z $namespace ]] || printf '  namespace: %s\n' "$namespace"
  printf 'rules:\n'
  local -A verbs_of=()
  local -a order=()
  local group resource verb key
  while read -r group resource verb; do
    group=${group//\"/}
    [[ $group == "$drop_group" && $resource == "$drop_resource" && $verb == "$drop_verb" ]] && continue
    key="$group/$resource"
    [[ -n ${verbs_of[$key]+set} ]] || order+=("$key")
    verbs_of[$key]+="${verbs_of[$key]:+, }$verb"
  done < <(role_triples "$file")
  for key in "${order[@]}"; do
    printf -- '- apiGroups: ["%s"]\n  resources: ["%s"]\n  verbs: [%s]\n' "${key%%/*}" "${key#*/}" "${verbs_of[$key]}"
  done
  [[ ${#order[@]} -gt 0 ]] || printf '  []\n'
}
