// The merge server-side apply makes of an applied configuration into an object, for the other
// places the API server applies one with structured-merge-diff (a MutatingAdmissionPolicy's
// ApplyConfiguration mutation): objects merge member by member, associative lists (containers by
// name, ports by port and protocol, ...) item by item with new items appended, set lists take the
// union, anything else (atomic lists, scalars) is replaced; a null removes the member. List types
// are the cluster's table of the built-in kinds' lists (docs/runtime/23-server-side-apply.md).
#pragma once
#include "rr/core/json.hpp"

namespace rr {

Json merge_apply_configuration(const Json& object, const Json& configuration);

}  // namespace rr
