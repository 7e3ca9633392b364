// kopium's test CRD MultiVersion (clux.dev: v1 stored, v2alpha1), translated by hand to structs.
#pragma once
#include <string>

#include "rr/core/meta.hpp"

namespace clux::v1 {

struct MultiVersionSpec {
  std::string name;
};

// +kubebuilder:object:root=true
// +kubebuilder:storageversion
struct MultiVersion {
  rr::ObjectMeta metadata;
  MultiVersionSpec spec;
};

}  // namespace clux::v1

namespace clux::v2alpha1 {

struct MultiVersionSpec {
  std::string name;
};

// +kubebuilder:object:root=true
struct MultiVersion {
  rr::ObjectMeta metadata;
  MultiVersionSpec spec;
};

}  // namespace clux::v2alpha1
