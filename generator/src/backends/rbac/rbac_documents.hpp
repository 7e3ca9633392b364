// The RBAC documents emit_rbac writes, shared with the metrics RBAC (emit_metrics_rbac.cpp).
#pragma once
#include <string>
#include <vector>

#include "model/rbac_derive.hpp"
#include "model/reconciler.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

// metadata: the app label (unless names.app is empty), name, namespace ("" = none).
Yaml metadata(const DeployNames& names, const std::string& name, const std::string& namespace_);
Yaml policy_rule(const PolicyRule& rule);
Yaml role(const DeployNames& names, const RoleKey& key, const RoleRules& rules);
// The binding of `key` to the manager's ServiceAccount, named binding_name(key.name).
Yaml binding(const DeployNames& names, const RoleKey& key);

struct RbacFile {
  std::string file;  // under config/rbac/
  std::vector<Yaml> documents;
  std::string comment;
};

// kubebuilder v4's metrics RBAC: metrics_auth_role.yaml (create tokenreviews and
// subjectaccessreviews, what the secure endpoint's reviews need) and its binding to the manager,
// only with metrics.secure; metrics_reader_role.yaml (get /metrics, for whoever scrapes).
std::vector<RbacFile> metrics_rbac_files(const ResolvedSpec& spec, const DeployNames& names);

}  // namespace rrgen
