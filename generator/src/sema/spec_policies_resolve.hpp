// Resolves the spec's `admissionPolicies:`: each policy's object spec as the API writes it, its
// matched resources defaulted to the reconciled kind (every version the spec's resource names,
// on CREATE and UPDATE). A duck resource has no one kind: its policies must list `resources`
// (spec-missing-key).
#pragma once
#include <vector>

#include "load/spec.hpp"
#include "model/reconciler.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// `resource` is nullptr for a duck resource.
std::vector<ResolvedAdmissionPolicy> resolve_policies(const std::vector<SpecAdmissionPolicy>& policies,
                                                      const ResolvedKind* resource, Diagnostics& diags);

}  // namespace rrgen
