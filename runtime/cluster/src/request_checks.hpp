// Checks every write request goes through before the store looks at it.
#pragma once
#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// The body must be a JSON object of the kind: fills in apiVersion/kind when absent, 400 BadRequest
// when they name another kind.
void check_type_meta(const KindInfo& kind, Json& object);
// The namespace member for the kind's scope: required (422) for namespaced kinds, dropped for
// cluster-scoped ones.
void normalize_namespace(const KindInfo& kind, Json& object);

}  // namespace rr::cluster_detail
