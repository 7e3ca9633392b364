// The manager's image the kubebuilder way: config/manager/manager.yaml names the placeholder
// `controller:latest` and config/manager/kustomization.yaml maps it onto the spec's `image:`
// (`images: - name: controller, newName, newTag, digest`), which `rrgen pin-image` later pins to
// the digest of the image the build made.
#pragma once
#include <string>

#include "support/yaml_writer.hpp"

namespace rrgen {

inline constexpr std::string_view kManagerImagePlaceholder = "controller:latest";
inline constexpr std::string_view kManagerImageName = "controller";

// config/manager/kustomization.yaml's document: manager.yaml and the images entry for `image`
// (a reference the spec reader accepted; its name, tag and digest as kustomize's fields).
Yaml manager_kustomization(const std::string& image);

}  // namespace rrgen
