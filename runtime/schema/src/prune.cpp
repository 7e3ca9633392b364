// Pruning of fields the structural schema does not specify, as apiextensions-apiserver's
// structural pruning does it: kept under x-kubernetes-preserve-unknown-fields, apiVersion, kind and
// metadata kept at the root and in embedded resources, and everything below a value with no schema
// (items without a schema, additionalProperties: true) pruned. Paths as in its "unknown field".
#include <algorithm>

#include "engine.hpp"

namespace rr::schema {
namespace {

const Node kNoSchema;  // upstream's nil *Structural: objects below it lose every member

}  // namespace

void prune_value(const Node& node, Json& value, bool resource, const std::string& path,
                 std::vector<std::string>& pruned) {
  resource = resource || node.embedded;
  if (value.is_array()) {
    const Node& items = node.items ? *node.items : kNoSchema;
    for (std::size_t i = 0; i < value.size(); ++i)
      prune_value(items, value[i], false, path + "[" + std::to_string(i) + "]", pruned);
    return;
  }
  if (!value.is_object()) return;
  std::vector<std::string> unknown;
  for (auto& [name, member] : value.items()) {
    const std::string at = path.empty() ? name : path + "." + name;
    if (resource && (name == "apiVersion" || name == "kind" || name == "metadata")) continue;
    if (auto it = node.properties.find(name); it != node.properties.end()) {
      prune_value(*it->second, member, false, at, pruned);
    } else if (node.additional) {
      prune_value(*node.additional, member, false, at, pruned);
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
