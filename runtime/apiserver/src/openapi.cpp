#include "openapi.hpp"

#include <cstdio>
#include <functional>
#include <set>

namespace rr::apiserver_detail {

namespace {

std::string group_version_path(const std::string& group, const std::string& version) {
  return group.empty() ? "api/" + version : "apis/" + group + "/" + version;
}

Json query_parameter(const char* name) {
  return Json{{"name", name}, {"in", "query"}, {"schema", {{"type", "string"}, {"uniqueItems", true}}}};
}

Json patch_operation(const KindInfo& kind) {
  const Json any_object = {{"schema", {{"type", "object"}}}};
  return Json{{"operationId", "patch" + kind.gvk.kind},
              {"parameters", Json::array({query_parameter("dryRun"), query_parameter("fieldManager"),
                                          query_parameter("fieldValidation"), query_parameter("force")})},
              {"requestBody",
               {{"content",
                 {{"application/json-patch+json", any_object},
                  {"application/merge-patch+json", any_object},
                  {"application/apply-patch+yaml", any_object}}}}},
              {"responses", {{"200", {{"description", "OK"}}}, {"201", {{"description", "Created"}}}}},
              {"x-kubernetes-action", "patch"},
              {"x-kubernetes-group-version-kind",
               {{"group", kind.gvk.group}, {"version", kind.gvk.version}, {"kind", kind.gvk.kind}}}};
}

std::string hash_of(const Json& document) {
  char text[17];
  std::snprintf(text, sizeof text, "%016zX", std::hash<std::string>{}(document.dump()));
  return text;
}

}  // namespace

std::optional<Json> openapi_v3_document(const KindCatalog& catalog, const std::string& group,
                                        const std::string& version) {
  Json paths = Json::object();
  for (const KindInfo& kind : catalog.served()) {
    if (kind.gvk.group != group || kind.gvk.version != version) continue;
    std::string path = "/" + group_version_path(group, version) + "/";
    if (kind.namespaced()) path += "namespaces/{namespace}/";
    path += kind.plural + "/{name}";
    paths[path] = {{"patch", patch_operation(kind)}};
  }
  if (paths.empty()) return std::nullopt;
  return Json{{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "v1.32.0-rrgen"}}},
              {"paths", paths},
              {"components", {{"schemas", Json::object()}}}};
}

Json openapi_v3_root(const KindCatalog& catalog) {
  std::set<std::pair<std::string, std::string>> group_versions;
  for (const KindInfo& kind : catalog.served()) group_versions.emplace(kind.gvk.group, kind.gvk.version);
  Json paths = Json::object();
  for (const auto& [group, version] : group_versions) {
    auto document = openapi_v3_document(catalog, group, version);
    if (!document) continue;
    const std::string path = group_version_path(group, version);
    paths[path] = {{"serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hash_of(*document)}};
  }
  return Json{{"paths", paths}};
}

}  // namespace rr::apiserver_detail
