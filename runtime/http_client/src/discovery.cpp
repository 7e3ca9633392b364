#include "discovery.hpp"

#include <set>

namespace rr::http_detail {

std::vector<KindInfo> kinds_of_resource_list(const std::string& group, const std::string& version,
                                             const Json& resource_list) {
  std::vector<KindInfo> kinds;
  const auto resources = resource_list.find("resources");
  if (resources == resource_list.end() || !resources->is_array()) return kinds;
  std::set<std::string> with_status;
  for (const Json& r : *resources) {
    const std::string name = r.value("name", std::string());
    if (const auto slash = name.find('/'); slash != std::string::npos && name.substr(slash + 1) == "status") {
      with_status.insert(name.substr(0, slash));
    }
  }
  for (const Json& r : *resources) {
    const std::string name = r.value("name", std::string());
    const std::string kind = r.value("kind", std::string());
    if (name.empty() || kind.empty() || name.find('/') != std::string::npos) continue;
    KindInfo info;
    info.gvk = {group, version, kind};
    info.plural = name;
    info.list_kind = kind + "List";
    info.scope = r.value("namespaced", false) ? Scope::Namespaced : Scope::Cluster;
    info.has_status = with_status.count(name) != 0;
    kinds.push_back(std::move(info));
  }
  return kinds;
}

}  // namespace rr::http_detail
