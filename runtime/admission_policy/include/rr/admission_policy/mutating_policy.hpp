// The API server's MutatingAdmissionPolicy plugin (admission/plugin/policy/mutating) for
// rr::Cluster: the admissionregistration.k8s.io MutatingAdmissionPolicy and
// MutatingAdmissionPolicyBinding objects in the store (v1beta1, the version 1.35 serves, and
// v1alpha1) mutate every write they match: JSONPatch and ApplyConfiguration mutations, with
// matchConstraints, matchConditions, variables, params, failurePolicy and reinvocationPolicy.
// docs/runtime/37-admission-policies.md says what differs.
#pragma once
#include <map>
#include <memory>
#include <string>

#include "rr/admission_policy/validating_policy.hpp"

namespace rr::admission_policy {

class MutatingPolicyPlugin : public AdmissionPlugin {
 public:
  explicit MutatingPolicyPlugin(PolicyOptions options = {});
  ~MutatingPolicyPlugin() override;

  // Whether any binding is stored.
  bool mutates(const StoreReader& store) override;
  // Throws rr::ApiError when a mutation fails under failurePolicy Fail.
  void mutate(const AdmissionAttributes& attributes) override;
  void validate(const AdmissionAttributes& attributes) override;

  struct Compiled;

 private:
  PolicyOptions options_;
  std::map<std::string, std::shared_ptr<const Compiled>> cache_;  // by "<version>/<name>"
};

}  // namespace rr::admission_policy
