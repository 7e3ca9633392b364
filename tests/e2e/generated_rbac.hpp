// The RBAC rrgen generated for a sample (its config/rbac/ files, as written), created in a local
// cluster the way `kubectl apply -f config/rbac/` would, and the identity it binds: the
// ServiceAccount the operator runs as, with a bearer token for it.
#pragma once
#include <string>

#include "rr/apiserver/api_server.hpp"

namespace rr {
class Cluster;
}

namespace rr::e2e {

struct OperatorIdentity {
  StaticToken token;  // system:serviceaccount:<ns>:<name> in the service-account groups
  int rules = 0;      // rules of the generated Roles and ClusterRoles
};

// Creates the ServiceAccount's namespace and every document of `config_dir`/rbac/*.yaml except the
// kustomization. Throws std::runtime_error when a file is unreadable or names no ServiceAccount.
OperatorIdentity apply_generated_rbac(Cluster& cluster, const std::string& config_dir);

}  // namespace rr::e2e
