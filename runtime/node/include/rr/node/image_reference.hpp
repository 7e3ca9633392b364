// Image references as the kubelet (through containerd's reference.ParseNormalizedNamed) reads a
// container's `image`: "busybox" is docker.io/library/busybox:latest, "repo@sha256:..." names a
// manifest by digest, a first component with '.' or ':' or "localhost" is a registry host.
#pragma once
#include <string>
#include <string_view>

namespace rr::node {

struct ImageReference {
  std::string repository;  // normalised: "docker.io/library/busybox"
  std::string tag;         // "" when only a digest was given
  std::string digest;      // "sha256:<64 hex>" or ""
  // "docker.io/library/busybox:1.36" or "...@sha256:..." (the tag is dropped when a digest is given)
  std::string str() const;
};

// Throws std::invalid_argument with the reason (containerd's words: "invalid reference format",
// "repository name must be lowercase").
ImageReference parse_image_reference(std::string_view text);

// Whether `text` is a tag alone ("v1", "latest"): an OCI layout's ref.name is often only that.
bool is_tag(std::string_view text);

}  // namespace rr::node
