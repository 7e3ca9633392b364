// OpenAPI v3 as kubectl reads it: the root index of group versions (each with a hash of what its
// document is made of), and per group version a document with the schemas of its kinds (built-in
// ones from the embedded 1.35 facts, custom resources from their CRDs: what `kubectl explain`
// prints) and the PATCH operation of every kind, tagged with its group-version-kind and
// advertising the fieldValidation query parameter (so kubectl sends fieldValidation=Strict and
// leaves validation to the server). See docs/runtime/19-local-cluster.md.
#pragma once
#include <functional>
#include <optional>
#include <string>

#include "kind_catalog.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// The CRD that declares a kind; nullopt for a built-in kind.
using CrdOf = std::function<std::optional<Json>(const KindInfo&)>;

// /openapi/v3: {"paths": {"api/v1": {"serverRelativeURL": "/openapi/v3/api/v1?hash=..."}, ...}}.
Json openapi_v3_root(const KindCatalog& catalog, const CrdOf& crd_of);
// /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>; nullopt when nothing is served there.
std::optional<Json> openapi_v3_document(const KindCatalog& catalog, const std::string& group,
                                        const std::string& version, const CrdOf& crd_of);

}  // namespace rr::apiserver_detail
