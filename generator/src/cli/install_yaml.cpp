#include "cli/install_yaml.hpp"

#include "model/rbac_derive.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

std::optional<std::string> install_yaml(const KustomizeFiles& files, Diagnostics& diags) {
  std::optional<std::string> objects = kustomize_build(files, "config/default", diags);
  if (!objects) return std::nullopt;
  // The Roles in the watched namespaces (spec `namespaces:`), which config/default cannot hold.
  const std::string watched_dir = rbac_namespaces_dir;
  if (files(watched_dir + "/kustomization.yaml")) {
    std::optional<std::string> roles = kustomize_build(files, watched_dir, diags);
    if (!roles) return std::nullopt;
    *objects += "---\n" + *roles;
  }
  return std::string(yaml_banner) +
         "# Everything `kubectl kustomize config/default` renders: kubectl apply -f dist/install.yaml\n" + *objects;
}

}  // namespace rrgen
