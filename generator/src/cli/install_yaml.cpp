#include "cli/install_yaml.hpp"

#include "support/yaml_writer.hpp"

namespace rrgen {

std::optional<std::string> install_yaml(const KustomizeFiles& files, Diagnostics& diags) {
  std::optional<std::string> objects = kustomize_build(files, "config/default", diags);
  if (!objects) return std::nullopt;
  return std::string(yaml_banner) +
         "# Everything `kubectl kustomize config/default` renders: kubectl apply -f dist/install.yaml\n" + *objects;
}

}  // namespace rrgen
