// Least-privilege RBAC for a reconciler spec: exactly the API calls the generated reconciler makes
// through the rr runtime (docs/rbac.md has the table and the reason for every verb), plus the
// spec's own `rbac:` rules, normalised as controller-gen does. Also the names of the objects the
// config/ tree deploys, which the RBAC and the manager manifests share.
#pragma once
#include <string>

#include "model/rbac_model.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

struct DeployNames {
  std::string app;                 // file stem in kebab case ("web-app"): prefix and app label
  std::string namespace_;          // spec deployNamespace, default "<app>-system"
  std::string manager_role;        // "<app>-manager-role" (ClusterRole or Role)
  // "<app>-manager-role-namespaced": with a namespace selector, the ClusterRole of the namespaced
  // kinds' rules, not bound cluster-wide: an admin binds it with a RoleBinding in each namespace.
  std::string namespaced_role;
  std::string leader_election_role;  // "<app>-leader-election-role" (Role in namespace_)
  std::string service_account;     // "<app>-controller-manager"
  std::string deployment;          // "<app>-controller-manager"
};

DeployNames deploy_names(const ResolvedSpec& spec);
// The same for a file stem and the spec's deployNamespace ("" = the default): what `rrgen init`
// checks before it writes a project.
DeployNames deploy_names(const std::string& file_stem, const std::string& deploy_namespace);

// The binding of a role is named after it, as kubebuilder does: "x-role" -> "x-rolebinding"; other
// names get "-binding" ("x-manager-role-namespaced" -> "x-manager-role-namespaced-binding").
std::string binding_name(const std::string& role_name);

// Where the manager's Roles in the namespaces of `namespaces:` (other than the deploy namespace)
// go: a kustomization without `namespace:`, which config/default's would override.
inline constexpr const char* rbac_namespaces_dir = "config/rbac-namespaces";

inline constexpr const char* rbac_origin_derived = "derived from the reconciler spec";
inline constexpr const char* rbac_origin_extra = "the spec's rbac: rules";

// The rules of each source before normalisation; merge_rule_sources() turns them into roles.
// Scope Cluster: one ClusterRole. Scope Namespace: a Role in the deploy namespace (with
// `namespaces:`, one in each listed namespace instead; with `namespaces: {selector}`, the
// unbound ClusterRole `namespaced_role` and list/watch of namespaces in the bound one), plus a
// ClusterRole for what a Role cannot grant (cluster-scoped kinds, non-resource URLs). With leader
// election, a Role "<app>-leader-election-role" in the deploy namespace.
std::vector<RuleSource> rbac_sources(const ResolvedSpec& spec);

// merge_rule_sources(rbac_sources(spec)).
RoleSet derive_rbac(const ResolvedSpec& spec);

}  // namespace rrgen
