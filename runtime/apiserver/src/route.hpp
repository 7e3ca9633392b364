// Request targets: "/api/v1/namespaces/ns/configmaps/name?watch=1" split into what the path
// addresses and its query parameters. Pure functions over outside input (fuzzed).
#pragma once
#include <map>
#include <string>
#include <string_view>

namespace rr::apiserver_detail {

using QueryParams = std::multimap<std::string, std::string>;

struct Target {
  std::string path;
  QueryParams query;
};

// Splits "path?query" and percent-decodes both ('+' in the query reads as a space, as Go's
// url.ParseQuery has it). Malformed escapes are kept as they are.
Target split_target(std::string_view target);

enum class Endpoint {
  NotFound,
  Version,            // /version
  Health,             // /healthz, /livez, /readyz (and their /<check> sub-paths)
  LegacyVersions,     // /api
  GroupList,          // /apis
  Group,              // /apis/<group>
  ResourceList,       // /api/v1, /apis/<group>/<version>
  Resource,           // everything below a group version
  OpenApiV3Root,      // /openapi/v3
  OpenApiV3Document,  // /openapi/v3/api/v1, /openapi/v3/apis/<group>/<version>
  OpenApiV2,          // /openapi/v2
};

struct Route {
  Endpoint endpoint = Endpoint::NotFound;
  std::string group;    // "" for the core group
  std::string version;
  bool namespaced_path = false;  // the path went through namespaces/<ns>/
  std::string namespace_;
  std::string resource;  // the plural
  std::string name;      // "" for a collection
  std::string subresource;
};

// What a (decoded) path addresses. A namespace's own subresources (namespaces/<n>/status and
// /finalize) are told apart from the resources in it by name, as the API server's routes do.
Route parse_route(std::string_view path);

}  // namespace rr::apiserver_detail
