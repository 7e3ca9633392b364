#include "openapi.hpp"

#include <cstdio>
#include <functional>
#include <map>
#include <vector>

#include "openapi_schemas.hpp"

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

std::string hash_of(const std::string& text) {
  char out[17];
  std::snprintf(out, sizeof out, "%016zX", std::hash<std::string>{}(text));
  return out;
}

std::vector<KindInfo> kinds_of(const KindCatalog& catalog, const std::string& group, const std::string& version) {
  std::vector<KindInfo> out;
  for (KindInfo& kind : catalog.served()) {
    if (kind.gvk.group == group && kind.gvk.version == version) out.push_back(std::move(kind));
  }
  return out;
}

// What a group-version's document is made of: its kinds, and the version of each one's CRD.
std::string fingerprint(const std::vector<KindInfo>& kinds, const CrdOf& crd_of) {
  std::string out;
  for (const KindInfo& kind : kinds) {
    out += kind.gvk.kind + "/" + kind.plural + "|";
    if (auto crd = crd_of(kind)) out += crd->value("/metadata/resourceVersion"_json_pointer, std::string()) + "|";
  }
  return out;
}

}  // namespace

std::optional<Json> openapi_v3_document(const KindCatalog& catalog, const std::string& group,
                                        const std::string& version, const CrdOf& crd_of) {
  const std::vector<KindInfo> kinds = kinds_of(catalog, group, version);
  if (kinds.empty()) return std::nullopt;
  Json paths = Json::object();
  Json schemas = Json::object();
  bool builtin = false;
  for (const KindInfo& kind : kinds) {
    std::string path = "/" + group_version_path(group, version) + "/";
    if (kind.namespaced()) path += "namespaces/{namespace}/";
    path += kind.plural + "/{name}";
    paths[path] = {{"patch", patch_operation(kind)}};
    if (auto crd = crd_of(kind)) {
      add_crd_schema(*crd, version, schemas);
    } else {
      builtin = true;
    }
  }
  if (builtin) schemas.update(builtin_component_schemas(group, version));
  return Json{{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "v1.35.0-rrgen"}}},
              {"paths", paths},
              {"components", {{"schemas", schemas}}}};
}

Json openapi_v3_root(const KindCatalog& catalog, const CrdOf& crd_of) {
  // One pass over the served kinds (in catalog order, as kinds_of() gives them per group-version).
  std::map<std::pair<std::string, std::string>, std::vector<KindInfo>> by_group_version;
  for (KindInfo& kind : catalog.served()) {
    auto key = std::pair(kind.gvk.group, kind.gvk.version);
    by_group_version[std::move(key)].push_back(std::move(kind));
  }
  Json paths = Json::object();
  for (const auto& [group_version, kinds] : by_group_version) {
    const std::string path = group_version_path(group_version.first, group_version.second);
    const std::string hash = hash_of(path + "|" + fingerprint(kinds, crd_of));
    paths[path] = {{"serverRelativeURL", "/openapi/v3/" + path + "?hash=" + hash}};
  }
  return Json{{"paths", paths}};
}

}  // namespace rr::apiserver_detail
