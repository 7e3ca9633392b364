// external-secrets' generator kind UUID (generators.external-secrets.io/v1alpha1), translated by
// hand: a spec without members, categories and the status subresource.
#pragma once
#include <string>

#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace generators::v1alpha1 {

// UUIDSpec controls the behavior of the uuid generator.
struct UUIDSpec {};

// UUID generates a version 1 UUID (e56657e3-764f-11ef-a397-65231a88c216).
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:categories=external-secrets;external-secrets-generators
struct UUID {
  std::string api_version;
  std::string kind;
  rr::ObjectMeta metadata;
  rr::Optional<UUIDSpec> spec;
};

}  // namespace generators::v1alpha1
