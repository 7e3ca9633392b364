// RBAC objects as tests write them: a ClusterRole and its ClusterRoleBinding to one subject.
// Header-only, so other layers' tests against the local cluster use it too (rr::manager's).
#pragma once
#include <string>

#include "rr/core/json.hpp"

namespace rr::apiserver_test {

inline Json cluster_role_object(const std::string& name, const Json& rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRole"},
          {"metadata", {{"name", name}}},
          {"rules", rules}};
}

// The binding `binding` of the ClusterRole `role` to `subject` ({"kind": "ServiceAccount", ...}).
inline Json cluster_role_binding_object(const std::string& binding, const std::string& role, const Json& subject) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "ClusterRoleBinding"},
          {"metadata", {{"name", binding}}},
          {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", role}}},
          {"subjects", {subject}}};
}

inline Json default_service_account(const std::string& name) {
  return {{"kind", "ServiceAccount"}, {"name", name}, {"namespace", "default"}};
}

}  // namespace rr::apiserver_test
