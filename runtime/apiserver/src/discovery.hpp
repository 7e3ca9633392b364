// Legacy discovery documents (client-go falls back to them when /apis answers a plain
// APIGroupList rather than the aggregated APIGroupDiscoveryList it asks for first).
#pragma once
#include <optional>
#include <string>

#include "kind_catalog.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// /version: a Kubernetes 1.32 server as far as version-skew checks go.
Json version_document();
// /api: APIVersions {versions: ["v1"]}.
Json legacy_versions_document(const std::string& server_address);
// /apis: APIGroupList of every served group but the core one (and the review groups
// authorization.k8s.io, authentication.k8s.io), versions by priority.
Json group_list_document(const KindCatalog& catalog);
// /apis/<group>: APIGroup; nullopt when nothing of the group is served.
std::optional<Json> group_document(const KindCatalog& catalog, const std::string& group);
// /api/v1, /apis/<group>/<version>: APIResourceList with verbs, short names, categories and the
// status subresources; nullopt when nothing of the group version is served.
std::optional<Json> resource_list_document(const KindCatalog& catalog, const std::string& group,
                                           const std::string& version);

}  // namespace rr::apiserver_detail
