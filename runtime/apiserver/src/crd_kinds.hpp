// What a CustomResourceDefinition (apiextensions.k8s.io/v1, as JSON) declares: the kinds to
// serve (every served version; the HTTP front end stores them in the storage version's kind and
// converts, crd_conversion.hpp), the
// discovery names, the checks and defaults the API server applies to it, and the status it
// reports once the names are accepted.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "kind_catalog.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

struct CrdKinds {
  std::vector<KindInfo> kinds;  // one per served version, storage version first
  ResourceNames names;
  std::string storage_version;
  std::vector<std::string> scaled_versions;  // the versions with a scale subresource
};

// Nullopt when the CRD lacks a group, names or versions (admission refuses such a CRD).
std::optional<CrdKinds> kinds_of_crd(const Json& crd);

// Admission of a CRD: defaults spec.names.singular and listKind, spec.scope checked, one storage
// version, metadata.name == <plural>.<group>, spec.conversion (defaulted to strategy None; a
// webhook exactly with strategy Webhook, speaking ConversionReview v1).
std::vector<FieldError> admit_crd(Json& crd);

// The status the API server reports for an accepted CRD: NamesAccepted and Established True,
// acceptedNames, storedVersions. `previous` keeps lastTransitionTime of conditions already true.
Json accepted_crd_status(const Json& crd, const std::string& now);
// True when `crd` already reports what accepted_crd_status would (times aside).
bool crd_status_current(const Json& crd);

}  // namespace rr::apiserver_detail
