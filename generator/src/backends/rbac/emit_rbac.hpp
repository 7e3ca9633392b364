// The RBAC backend: config/rbac/ in kubebuilder's layout, from derive_rbac():
//   role.yaml                          the manager's ClusterRole and/or Role ("<app>-manager-role")
//   role_binding.yaml                  one binding per role, to the ServiceAccount
//   service_account.yaml               "<app>-controller-manager" in the deploy namespace
//   leader_election_role.yaml          only with leaderElectionID: a Role for Leases and events
//   leader_election_role_binding.yaml
//   kustomization.yaml                 exactly the files above that were written
// and, with `namespaces:` listing others than the deploy namespace, config/rbac-namespaces/
// (role.yaml, role_binding.yaml, kustomization.yaml: the Role and RoleBinding in each namespace).
#pragma once
#include "model/rbac_derive.hpp"
#include "model/reconciler.hpp"
#include "support/generate_options.hpp"
#include "support/output.hpp"

namespace rrgen {

OutputSet emit_rbac(const ResolvedSpec& spec, const GenerateOptions& options);

// The same tree for `roles` instead of the spec's own (the names, leader election and metrics still
// come from `spec`): a project's one deploy tree over several kinds (backends/config/project_config).
OutputSet emit_rbac_roles(const ResolvedSpec& spec, const RoleSet& roles);

// The roles of `roles` as role.yaml writes them (labelled with names.app unless it is empty), for
// `rrgen analyze --format=yaml`.
std::string role_manifests(const RoleSet& roles, const DeployNames& names, const std::string& comment);

}  // namespace rrgen
