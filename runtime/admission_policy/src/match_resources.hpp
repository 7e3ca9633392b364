// Whether a write is one a policy's matchConstraints or a binding's matchResources select
// (k8s.io/apiserver/pkg/admission/plugin/policy/matching): namespace and object selectors, then
// excludeResourceRules, then resourceRules (none: every resource).
#pragma once
#include "compiled_policy.hpp"
#include "rr/admission_policy/request_attributes.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy::detail {

inline const GroupVersionKind namespace_gvk{"", "v1", "Namespace"};

bool matches(const MatchResources& match, const AdmissionAttributes& attributes);

using admission_policy::labels_of;
using admission_policy::operation_text;

}  // namespace rr::admission_policy::detail
