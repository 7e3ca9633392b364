// What a policy's expressions see of one write (plugin/cel's activation): the object and old
// object, the AdmissionRequest without its objects, the namespace object and the authorizer, all
// copied so that evaluation may run without the cluster's lock.
#pragma once
#include "policy_evaluation.hpp"
#include "rr/admission_policy/validating_policy.hpp"

namespace rr::admission_policy::detail {

EvaluationInput evaluation_input(const AdmissionAttributes& attributes, const PolicyOptions::Authorize& authorize);

}  // namespace rr::admission_policy::detail
