#include "discovery.hpp"

#include "access_reviews.hpp"

#include <algorithm>
#include <map>
#include <vector>

namespace rr::apiserver_detail {

namespace {

const std::vector<std::string> kAllVerbs = {"create", "delete", "deletecollection", "get",
                                            "list",   "patch",  "update",           "watch"};

// The group's versions, most preferred first.
std::map<std::string, std::vector<std::string>> versions_by_group(const KindCatalog& catalog) {
  std::map<std::string, std::vector<std::string>> out;
  for (const KindInfo& kind : catalog.served()) {
    auto& versions = out[kind.gvk.group];
    if (std::find(versions.begin(), versions.end(), kind.gvk.version) == versions.end()) {
      versions.push_back(kind.gvk.version);
    }
  }
  // The reviews are served without being stored kinds.
  for (const ReviewResource& review : review_resources()) {
    auto& versions = out[review.group];
    if (std::find(versions.begin(), versions.end(), review.version) == versions.end()) {
      versions.push_back(review.version);
    }
  }
  for (auto& [group, versions] : out) std::sort(versions.begin(), versions.end(), version_precedes);
  return out;
}

Json group_json(const std::string& group, const std::vector<std::string>& versions) {
  Json listed = Json::array();
  for (const auto& v : versions) listed.push_back({{"groupVersion", group + "/" + v}, {"version", v}});
  return Json{{"name", group},
              {"versions", listed},
              {"preferredVersion", {{"groupVersion", group + "/" + versions.front()}, {"version", versions.front()}}}};
}

}  // namespace

Json version_document() {
  return Json{{"major", "1"},
              {"minor", "35"},
              {"gitVersion", "v1.35.0-rrgen"},
              {"gitCommit", "0000000000000000000000000000000000000000"},
              {"gitTreeState", "clean"},
              {"buildDate", "2025-12-17T00:00:00Z"},
              {"goVersion", "go1.25.5"},
              {"compiler", "gc"},
              {"platform", "linux/amd64"}};
}

Json legacy_versions_document(const std::string& server_address) {
  return Json{{"kind", "APIVersions"},
              {"versions", Json::array({"v1"})},
              {"serverAddressByClientCIDRs",
               Json::array({{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}})}};
}

Json group_list_document(const KindCatalog& catalog) {
  Json groups = Json::array();
  for (const auto& [group, versions] : versions_by_group(catalog)) {
    if (!group.empty()) groups.push_back(group_json(group, versions));
  }
  return Json{{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", groups}};
}

std::optional<Json> group_document(const KindCatalog& catalog, const std::string& group) {
  if (group.empty()) return std::nullopt;
  auto all = versions_by_group(catalog);
  auto it = all.find(group);
  if (it == all.end()) return std::nullopt;
  Json doc = group_json(group, it->second);
  doc["kind"] = "APIGroup";
  doc["apiVersion"] = "v1";
  return doc;
}

std::optional<Json> resource_list_document(const KindCatalog& catalog, const std::string& group,
                                           const std::string& version) {
  Json resources = Json::array();
  for (const KindInfo& kind : catalog.served()) {
    if (kind.gvk.group != group || kind.gvk.version != version) continue;
    const ResourceNames names = catalog.names(kind);
    const Json verbs = names.verbs.empty() ? Json(kAllVerbs) : Json(names.verbs);
    Json resource = {{"name", kind.plural},
                     {"singularName", names.singular},
                     {"namespaced", kind.namespaced()},
                     {"kind", kind.gvk.kind},
                     {"verbs", verbs}};
    if (!names.short_names.empty()) resource["shortNames"] = names.short_names;
    if (!names.categories.empty()) resource["categories"] = names.categories;
    resources.push_back(std::move(resource));
    if (kind.has_status) {
      resources.push_back({{"name", kind.plural + "/status"},
                           {"singularName", ""},
                           {"namespaced", kind.namespaced()},
                           {"kind", kind.gvk.kind},
                           {"verbs", {"get", "patch", "update"}}});
    }
    if (names.has_scale) {
      resources.push_back({{"name", kind.plural + "/scale"},
                           {"singularName", ""},
                           {"namespaced", kind.namespaced()},
                           {"group", "autoscaling"},
                           {"version", "v1"},
                           {"kind", "Scale"},
                           {"verbs", {"get", "patch", "update"}}});
    }
    if (kind.gvk == GroupVersionKind{"", "v1", "Pod"}) {  // served from the node agent's logs
      resources.push_back(
          {{"name", "pods/log"}, {"singularName", ""}, {"namespaced", true}, {"kind", "Pod"}, {"verbs", {"get"}}});
    }
    if (kind.gvk == GroupVersionKind{"", "v1", "ServiceAccount"}) {
      resources.push_back({{"name", "serviceaccounts/token"},
                           {"singularName", ""},
                           {"namespaced", true},
                           {"group", "authentication.k8s.io"},
                           {"version", "v1"},
                           {"kind", "TokenRequest"},
                           {"verbs", {"create"}}});
    }
  }
  for (const ReviewResource& review : review_resources()) {
    if (review.group != group || review.version != version) continue;
    resources.push_back({{"name", review.plural},
                         {"singularName", ""},
                         {"namespaced", review.namespaced},
                         {"kind", review.kind},
                         {"verbs", {"create"}}});
  }
  if (resources.empty()) return std::nullopt;
  return Json{{"kind", "APIResourceList"},
              {"apiVersion", "v1"},
              {"groupVersion", group.empty() ? version : group + "/" + version},
              {"resources", resources}};
}

}  // namespace rr::apiserver_detail
