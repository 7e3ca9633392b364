// An image reference as `rrgen image` takes it: <repository>[:<tag>], the tag "latest" when
// absent (as docker). A digest (@sha256:...) cannot name an image that is being built.
#pragma once
#include <optional>
#include <string>

namespace rrgen::image {

struct ImageRef {
  std::string repository;  // "ghcr.io/acme/webapp-operator", "controller"
  std::string tag;         // "v1.2.0"
  std::string text() const { return repository + ":" + tag; }
  // Docker's normalized form, what containerd writes as io.containerd.image.name:
  // "controller:latest" is "docker.io/library/controller:latest", "team/app:1" "docker.io/team/app:1".
  std::string full_name() const;
};

// nullopt with `error` set when `text` is not a reference the OCI distribution spec allows.
std::optional<ImageRef> parse_image_ref(const std::string& text, std::string& error);

}  // namespace rrgen::image
