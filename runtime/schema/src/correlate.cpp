#include "correlate.hpp"

#include "error_text.hpp"

namespace rr::schema {

const Json* old_member(const Json* old, std::string_view name) {
  if (!old || !old->is_object()) return nullptr;
  auto it = old->find(name);
  return it == old->end() ? nullptr : &*it;
}

std::string item_identity(const Node& list, const Json& item) {
  if (list.list_type == ListType::Map && item.is_object()) {
    Json keys = Json::object();
    for (const auto& k : list.list_map_keys)
      if (auto it = item.find(k); it != item.end()) keys[k] = *it;
    return go_value(keys);
  }
  return item.is_string() ? item.dump() : go_value(item);
}

ListCorrelation::ListCorrelation(const Node& list, const Json* old) : list_(list) {
  if (!old || !old->is_array() || list.list_type == ListType::Atomic) return;
  for (const Json& item : *old) by_identity_.emplace(item_identity(list, item), &item);
}

const Json* ListCorrelation::find(const Json& item) const {
  if (by_identity_.empty()) return nullptr;
  auto it = by_identity_.find(item_identity(list_, item));
  return it == by_identity_.end() ? nullptr : it->second;
}

}  // namespace rr::schema
