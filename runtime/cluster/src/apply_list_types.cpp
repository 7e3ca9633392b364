#include "apply_list_types.hpp"

#include <algorithm>
#include <set>

namespace rr::cluster_detail {

namespace {

using Keys = std::vector<std::pair<std::string, Json>>;

Keys required(std::initializer_list<const char*> names) {
  Keys keys;
  for (const char* name : names) keys.emplace_back(name, nullptr);
  return keys;
}

// x-kubernetes-list-map-keys of the core/v1, apps/v1 and meta/v1 lists controllers apply most.
const std::vector<std::pair<std::string_view, Keys>>& associative_lists() {
  static const std::vector<std::pair<std::string_view, Keys>> table = {
      {"conditions", required({"type"})},
      {"containers", required({"name"})},
      {"env", required({"name"})},
      {"ephemeralContainers", required({"name"})},
      {"hostAliases", required({"ip"})},
      {"imagePullSecrets", required({"name"})},
      {"initContainers", required({"name"})},
      {"ownerReferences", required({"uid"})},
      {"resourceClaims", required({"name"})},
      {"topologySpreadConstraints", required({"topologyKey", "whenUnsatisfiable"})},
      {"volumeDevices", required({"devicePath"})},
      {"volumeMounts", required({"mountPath"})},
      {"volumes", required({"name"})},
  };
  return table;
}

bool is_scalar(const Json& v) { return v.is_string() || v.is_number() || v.is_boolean(); }

bool every_item_has(const Json& list, const char* member) {
  return std::all_of(list.begin(), list.end(),
                     [&](const Json& item) { return item.is_object() && item.contains(member); });
}

// Container ports are keyed by containerPort and protocol, service ports by port and protocol;
// the protocol defaults to TCP.
Keys port_keys(const Json& list) {
  const Json tcp = "TCP";
  if (every_item_has(list, "containerPort")) return {{"containerPort", nullptr}, {"protocol", tcp}};
  if (every_item_has(list, "port")) return {{"port", nullptr}, {"protocol", tcp}};
  return {};
}

Keys keys_for(std::string_view field, const Json& list) {
  if (field == "ports") return port_keys(list);
  for (const auto& [name, keys] : associative_lists()) {
    if (name == field) return keys;
  }
  return {};
}

// Every item carries its (scalar) keys and no two items share them.
bool fits(const ListType& type, const Json& list) {
  if (!list.is_array()) return false;
  std::set<std::string> seen;
  for (const Json& item : list) {
    if (type.kind == ListKind::Set) {
      if (!is_scalar(item)) return false;
    } else {
      if (!item.is_object()) return false;
      for (const auto& [key, fallback] : type.keys) {
        auto it = item.find(key);
        if (it == item.end() ? fallback.is_null() : !is_scalar(*it)) return false;
      }
    }
    if (!seen.insert(type.element_of(item)).second) return false;
  }
  return true;
}

}  // namespace

std::string ListType::element_of(const Json& item) const {
  if (kind == ListKind::Set) return "v:" + item.dump();
  if (kind != ListKind::Associative) return {};
  Json key = Json::object();
  for (const auto& [name, fallback] : keys) {
    auto it = item.find(name);
    key[name] = it != item.end() ? *it : fallback;
  }
  return "k:" + key.dump();
}

ListType list_type_of(std::string_view field, const Json& list, const Json* other) {
  ListType type;
  if (field == "finalizers") {
    type.kind = ListKind::Set;
  } else {
    // An empty side says nothing about which keys the items use.
    const bool other_decides = other && other->is_array() && list.empty();
    type.keys = keys_for(field, other_decides ? *other : list);
    if (type.keys.empty()) return ListType{};
    type.kind = ListKind::Associative;
  }
  return fitted(std::move(type), list, other);
}

ListType fitted(ListType type, const Json& list, const Json* other) {
  if (type.kind == ListKind::Atomic) return type;
  if (!fits(type, list) || (other && !fits(type, *other))) return ListType{};
  return type;
}

}  // namespace rr::cluster_detail
