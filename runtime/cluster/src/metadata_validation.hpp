// ObjectMeta validation on every write of a main resource, as rest.BeforeCreate / BeforeUpdate
// apply it (rr::validation): the findings join the kind's own admission findings in one 422.
#pragma once
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// `old_object` null: a create. A built-in resource gets its name rule from rr::validation's table;
// any other kind is a custom resource (a DNS subdomain).
std::vector<FieldError> metadata_findings(const KindInfo& kind, const Json& object, const Json* old_object);

}  // namespace rr::cluster_detail
