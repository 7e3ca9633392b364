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
  return go_value(item);
}

ListCorrelation::ListCorrelation(const Node& list, const Json* old)
    : list_(list), old_(old && old->is_array() ? old : nullptr) {
  if (old_ && list.list_type == ListType::Map)
    for (const Json& item : *old_) by_keys_.emplace(item_identity(list, item), &item);
}

const Json* ListCorrelation::find(const Json& item, std::size_t index) const {
  if (!old_) return nullptr;
  switch (list_.list_type) {
    case ListType::Map: {
      auto it = by_keys_.find(item_identity(list_, item));
      return it == by_keys_.end() ? nullptr : it->second;
    }
    case ListType::Unspecified: return index < old_->size() ? &(*old_)[index] : nullptr;
    default: return nullptr;
  }
}

bool unchanged(const Node& node, const Json& value, const Json& old) {
  if (value.is_null() || old.is_null()) return value.is_null() && old.is_null();
  if (value.is_array() != old.is_array() || value.is_object() != old.is_object()) return false;
  if (value.is_array()) {
    if (value.size() != old.size()) return false;
    if (value.empty()) return true;
    if (!node.items) return false;
    const ListCorrelation correlation(node, &old);
    for (std::size_t i = 0; i < value.size(); ++i) {
      const Json* o = correlation.find(value[i], i);
      if (!o || !unchanged(*node.items, value[i], *o)) return false;
    }
    return true;
  }
  if (value.is_object()) {
    if (value.size() != old.size()) return false;
    for (const auto& [name, o] : old.items()) {
      auto it = value.find(name);
      if (it == value.end()) return false;
      const auto prop = node.properties.find(name);
      const Node* child = prop != node.properties.end() ? prop->second.get()
                          : node.additional_is_schema   ? node.additional.get()
                                                        : nullptr;
      if (!child || !unchanged(*child, *it, o)) return false;
    }
    return true;
  }
  return value == old;
}

}  // namespace rr::schema
