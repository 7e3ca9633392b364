// The API server's ValidatingAdmissionPolicy plugin (k8s.io/apiserver/pkg/admission/plugin/policy/
// validating) for rr::Cluster: the admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy and
// ValidatingAdmissionPolicyBinding objects in the store decide, on every write, which CEL
// validations run (compiled once per resourceVersion, so a change takes effect at once).
//
// matchConstraints and a binding's matchResources (rules, excludeResourceRules, namespace and
// object selectors, matchPolicy), matchConditions, variables, paramKind/paramRef, validations with
// message/messageExpression/reason, validationActions Deny/Warn/Audit, auditAnnotations,
// failurePolicy, the `authorizer` and `namespaceObject` variables and the runtime cost limits, with
// the API server's messages. docs/runtime/37-admission-policies.md says what differs.
#pragma once
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "rr/cel/authz.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy {

inline const GroupVersionKind validating_policy_gvk{"admissionregistration.k8s.io", "v1", "ValidatingAdmissionPolicy"};
inline const GroupVersionKind validating_binding_gvk{"admissionregistration.k8s.io", "v1",
                                                     "ValidatingAdmissionPolicyBinding"};

// What the API server records in the request's audit event: an auditAnnotation
// ("<policy>/<key>") or an Audit action's "validation.policy.admission.k8s.io/validation_failure".
struct AuditAnnotation {
  AdmissionOperation operation = AdmissionOperation::Create;
  std::string resource, namespace_, name;  // the request's
  std::string key, value;
};

struct PolicyOptions {
  // Decides the `authorizer` variable's checks for the request's user (nullptr: none). Called with
  // the cluster's lock released. Unset: every check is an error ("no authorizer").
  using Authorize = std::function<cel::AuthzDecision(const RequestUser* user, const cel::AuthzAttributes&)>;
  Authorize authorize;
  // Each audit annotation as it is made; they are kept in recent_audit_annotations() too.
  std::function<void(const AuditAnnotation&)> audit;
  std::size_t audit_history = 1000;
};

class ValidatingPolicyPlugin : public AdmissionPlugin {
 public:
  explicit ValidatingPolicyPlugin(PolicyOptions options = {});
  ~ValidatingPolicyPlugin() override;

  bool mutates(const StoreReader& store) override;
  void mutate(const AdmissionAttributes& attributes) override;
  // Throws rr::ApiError (the first Deny, as the API server reports it); adds Warn actions'
  // warnings to attributes.warnings.
  void validate(const AdmissionAttributes& attributes) override;

  // The audit annotations made so far, oldest first (at most options.audit_history).
  std::vector<AuditAnnotation> recent_audit_annotations() const;

  struct Compiled;

 private:
  // Every stored policy compiled (cached by name and resourceVersion), sorted by name.
  std::vector<std::shared_ptr<const Compiled>> policies(const StoreReader& store);
  void record(AuditAnnotation annotation);

  PolicyOptions options_;
  std::map<std::string, std::shared_ptr<const Compiled>> cache_;  // by policy name
  mutable std::mutex audit_mutex_;
  std::deque<AuditAnnotation> audit_;
};

}  // namespace rr::admission_policy
