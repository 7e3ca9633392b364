// OpenAPI v3, only as far as kubectl's validation check reads it: the root index of group
// versions, and per group version the PATCH operation of every kind, tagged with its
// group-version-kind and advertising the fieldValidation query parameter. kubectl then sends
// fieldValidation=Strict and validates nothing on the client (no schemas are served; see
// docs/runtime/19-local-cluster.md).
#pragma once
#include <optional>
#include <string>

#include "kind_catalog.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// /openapi/v3: {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}, ...}}.
Json openapi_v3_root(const KindCatalog& catalog);
// /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>; nullopt when nothing is served there.
std::optional<Json> openapi_v3_document(const KindCatalog& catalog, const std::string& group,
                                        const std::string& version);

}  // namespace rr::apiserver_detail
