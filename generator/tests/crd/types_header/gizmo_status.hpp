// Gizmo's status, in a header of its own: an edit of it (a header the types header includes)
// must write the CRD again (types_header_test.cmake).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"

namespace consumer::v1 {

struct GizmoStatus {
  rr::Optional<std::int64_t> observed_generation;
  // +listType=map
  // +listMapKey=type
  rr::Optional<std::vector<rr::Condition>> conditions;
  rr::Optional<std::string> greeting;
};

}  // namespace consumer::v1
