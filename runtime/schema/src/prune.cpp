// Pruning of fields the structural schema does not specify, as apiextensions-apiserver's
// structural pruning does it: kept under x-kubernetes-preserve-unknown-fields, and apiVersion,
// kind and metadata kept at the root and in embedded resources. Paths as in its "unknown field".
#include <algorithm>

#include "engine.hpp"

namespace rr::schema {

void prune_value(const Node& node, Json& value, bool resource, const std::string& path,
                 std::vector<std::string>& pruned) {
  if (value.is_array()) {
    if (!node.items) return;
    for (std::size_t i = 0; i < value.size(); ++i)
      prune_value(*node.items, value[i], false, path + "[" + std::to_string(i) + "]", pruned);
    return;
  }
  if (!value.is_object()) return;
  std::vector<std::string> unknown;
  for (auto& [name, member] : value.items()) {
    const std::string at = path.empty() ? name : path + "." + name;
    if (resource && (name == "apiVersion" || name == "kind" || name == "metadata")) continue;
    if (auto it = node.properties.find(name); it != node.properties.end()) {
      prune_value(*it->second, member, it->second->embedded, at, pruned);
    } else if (node.additional) {
      prune_value(*node.additional, member, node.additional->embedded, at, pruned);
    } else if (!node.preserve_unknown) {
      unknown.push_back(name);
      pruned.push_back(at);
    }
  }
  for (const auto& name : unknown) value.erase(name);
}

std::vector<std::string> Schema::prune(Json& object) const {
  std::vector<std::string> pruned;
  prune_value(*root_, object, true, "", pruned);
  std::sort(pruned.begin(), pruned.end());
  return pruned;
}

}  // namespace rr::schema
