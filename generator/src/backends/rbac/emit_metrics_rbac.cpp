// config/rbac's metrics roles, named as kubebuilder v4 scaffolds them (with the app prefix every
// rrgen name carries): see rbac_documents.hpp.
#include "backends/rbac/rbac_documents.hpp"

namespace rrgen {

std::vector<RbacFile> metrics_rbac_files(const ResolvedSpec& spec, const DeployNames& names) {
  std::vector<RbacFile> out;
  if (spec.metrics.secure) {
    const RoleKey auth{"", names.app + "-metrics-auth-role"};
    RoleRules reviews;
    reviews.rules = {
        PolicyRule{.api_groups = {"authentication.k8s.io"}, .resources = {"tokenreviews"}, .verbs = {"create"}},
        PolicyRule{.api_groups = {"authorization.k8s.io"}, .resources = {"subjectaccessreviews"}, .verbs = {"create"}}};
    out.push_back({"metrics_auth_role.yaml",
                   {role(names, auth, reviews)},
                   "Lets the manager authenticate and authorize the callers of its secure /metrics."});
    out.push_back({"metrics_auth_role_binding.yaml", {binding(names, auth)}, ""});
  }
  RoleRules reader;
  reader.rules = {PolicyRule{.verbs = {"get"}, .non_resource_urls = {"/metrics"}}};
  out.push_back({"metrics_reader_role.yaml",
                 {role(names, RoleKey{"", names.app + "-metrics-reader"}, reader)},
                 "Bind it to whoever scrapes /metrics (Prometheus' ServiceAccount)."});
  return out;
}

}  // namespace rrgen
