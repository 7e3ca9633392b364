// dist/install.yaml, kubebuilder's `make build-installer`: `kustomize build config/default` as one
// file, rendered by load/kustomize from a config/ tree (the one `rrgen generate` has in memory, or
// the one on disk for `rrgen pin-image`).
#pragma once
#include <optional>
#include <string>

#include "load/kustomize.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

inline constexpr const char* kInstallYamlPath = "dist/install.yaml";

// The file's text (a banner, then the objects), or nullopt with errors in diags. `files` looks up
// paths relative to the output directory ("config/default/kustomization.yaml").
std::optional<std::string> install_yaml(const KustomizeFiles& files, Diagnostics& diags);

}  // namespace rrgen
