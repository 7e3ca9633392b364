// The local cluster's admission without its HTTP front end: the cluster ApiServer builds (every
// built-in kind with its defaults, Go validation and schema; CRDs registered as the CRD
// controller registers them, with schema, defaults and CEL; the API server's admission chain of
// admission policies and webhooks) and the writes an offline check needs: a CRD's create, an
// object's create (admission policies, their bindings and params) and a dry-run create.
// rrgen-validate (runtime/manifest_check) runs on it.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/client/options.hpp"
#include "rr/core/json.hpp"

namespace rr {

class Cluster;

class OfflineAdmission {
 public:
  // Namespaces need not exist (a namespaced object is admitted in any namespace).
  OfflineAdmission();
  ~OfflineAdmission();
  OfflineAdmission(const OfflineAdmission&) = delete;
  OfflineAdmission& operator=(const OfflineAdmission&) = delete;

  // POST of a CustomResourceDefinition: admitted as the API server admits one (ApiError with its
  // Status when refused), stored, and its kinds served, as after the HTTP front end's CRD write.
  Json add_crd(const Json& crd);

  // POST of any other object (namespace already set for a namespaced kind), stored: admission
  // policies and bindings, which then decide every later write as in the API server, and their
  // params. ApiError with the Status the API server would answer when refused.
  Json create(const KindInfo& kind, const Json& object, FieldValidation validation, std::vector<std::string>* warnings);

  // POST ...?dryRun=All of `object` (namespace already set for a namespaced kind): the object the
  // API server would return, or ApiError with the Status it would answer. Warnings (unknown
  // fields under Warn, the admission's own) are appended to `warnings` when given. A CRD's object
  // in a version other than its storage version is admitted in the version sent (its schema, rules
  // and defaults), then converted to the storage version, as the HTTP front end does (and returned
  // in the version sent).
  Json dry_run_create(const KindInfo& kind, const Json& object, FieldValidation validation,
                      std::vector<std::string>* warnings) const;

  // The status the API server's policy status controller would write for a stored
  // ValidatingAdmissionPolicy: observedGeneration and typeChecking, its expressions type-checked
  // against the schemas of the kinds it matches (built-in from the facts, custom from add_crd).
  Json policy_status(const Json& policy) const;

  // The served kind of a group-version-kind (built-in or from add_crd); nullopt when none.
  std::optional<KindInfo> find_kind(const GroupVersionKind& gvk) const;

  const std::shared_ptr<Cluster>& cluster() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
