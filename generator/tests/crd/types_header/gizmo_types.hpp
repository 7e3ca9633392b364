// The Gizmo kind of tests/cmake/consumer as C++ types, for types_header_test.cmake:
// add_reconciler(TYPES_HEADER) writes its CRD from this header in the build.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "gizmo_status.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace consumer::v1 {

struct GizmoSpec {
  // Who the Gizmo greets.
  // +kubebuilder:default=world
  rr::Optional<std::string> name;
};

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
struct Gizmo {
  rr::ObjectMeta metadata;
  rr::Optional<GizmoSpec> spec;
  rr::Optional<GizmoStatus> status;
};

}  // namespace consumer::v1
