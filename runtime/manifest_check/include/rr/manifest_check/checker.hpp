// One manifest document admitted as the local cluster admits a `kubectl create --dry-run=server`
// of it (rr::OfflineAdmission): the outcome carries the Status the API server would answer and
// its warnings.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rr/apiserver/offline_admission.hpp"
#include "rr/client/api_error.hpp"
#include "rr/manifest_check/manifest_reader.hpp"

namespace rr::manifest_check {

struct Outcome {
  std::string file;  // as given on the command line; "-" for stdin
  std::size_t document = 0, line = 0;
  std::string api_version, kind, name;
  std::optional<Status> refusal;  // nullopt: admitted
  std::vector<std::string> warnings;
  Json object{};  // admitted: the object as stored (add_object) or as the dry run returned it (check)
};

class Checker {
 public:
  // `strict`: unknown fields are refused (fieldValidation=Strict); otherwise they are warnings.
  explicit Checker(bool strict);

  // A --crd document: admitted as a CRD write, its kinds served from then on. Documents of other
  // kinds are not CRDs: nullopt (a folder of CRDs may carry other manifests). A CRD whose name
  // was given before is skipped with a warning (the first one stays).
  std::optional<Outcome> add_crd(const std::string& file, const Document& doc);

  // A --policy document: created (stored) as the API server creates it, so that admission
  // policies and their bindings decide every later check, and a policy's params exist. A
  // namespaced object without a namespace goes to "default"; one whose name was given before is
  // skipped with a warning. A ValidatingAdmissionPolicy's type-checking warnings (its status'
  // expressionWarnings, against the kinds it matches) are the outcome's warnings.
  Outcome add_object(const std::string& file, const Document& doc);

  // A document to check: a dry-run create of it. A namespaced object without a namespace is
  // checked in "default"; namespaces need not exist.
  Outcome check(const std::string& file, const Document& doc) const;

  // The status the API server writes for a stored ValidatingAdmissionPolicy (type checking
  // against the kinds it matches, the CRDs given included).
  Json policy_status(const Json& policy) const { return admission_.policy_status(policy); }

 private:
  // The served kind of the document and its object as sent (namespace defaulted), or a refusal
  // in `out` (no type, an unknown kind, a repeated key under Strict).
  std::optional<std::pair<KindInfo, Json>> route(const Document& doc, Outcome& out) const;

  FieldValidation validation() const { return strict_ ? FieldValidation::Strict : FieldValidation::Warn; }

  OfflineAdmission admission_;
  bool strict_;
};

// A ValidatingAdmissionPolicy, MutatingAdmissionPolicy or one of their bindings (any version).
bool is_admission_policy(const Json& object);

// "no matches for kind ..." as kubectl says it when discovery does not know the kind.
Status no_kind_match(const std::string& api_version, const std::string& kind);

}  // namespace rr::manifest_check
