#include "apply_walk.hpp"

#include <map>
#include <string_view>

#include "apply_list_types.hpp"
#include "rr/cluster/apply_merge.hpp"

namespace rr::cluster_detail {

namespace {

// Keeps `path` one element longer for the life of the guard.
class Descend {
 public:
  Descend(FieldPath& path, std::string element) : path_(path) { path_.push_back(std::move(element)); }
  ~Descend() { path_.pop_back(); }
  Descend(const Descend&) = delete;
  Descend& operator=(const Descend&) = delete;

 private:
  FieldPath& path_;
};

std::string member(std::string_view name) { return "f:" + std::string(name); }

// ---- fields_set_by ---------------------------------------------------------------------------

void collect(const Json& value, FieldPath& path, std::string_view field, FieldSet& out);

void collect_members(const Json& object, FieldPath& path, FieldSet& out) {
  for (const auto& [name, value] : object.items()) {
    Descend d(path, member(name));
    collect(value, path, name, out);
  }
}

void collect(const Json& value, FieldPath& path, std::string_view field, FieldSet& out) {
  if (value.is_object()) {
    collect_members(value, path, out);
    return;
  }
  if (value.is_array()) {
    const ListType type = list_type_of(field, value);
    if (type.kind == ListKind::Atomic) {
      out.insert(path);
      return;
    }
    for (const Json& item : value) {
      Descend d(path, type.element_of(item));
      out.insert(path);
      if (item.is_object()) collect_members(item, path, out);
    }
    return;
  }
  out.insert(path);
}

// ---- merge_configuration ---------------------------------------------------------------------

// A configuration's nulls mean "not set" where the live object has nothing to remove.
Json without_nulls(const Json& value) {
  if (!value.is_object() && !value.is_array()) return value;
  Json out = value.is_object() ? Json::object() : Json::array();
  if (value.is_array()) {
    for (const Json& item : value) out.push_back(without_nulls(item));
    return out;
  }
  for (const auto& [name, child] : value.items()) {
    if (!child.is_null()) out[name] = without_nulls(child);
  }
  return out;
}

Json merge_value(const Json& live, const Json& config, std::string_view field);

Json merge_objects(const Json& live, const Json& config) {
  Json out = live;
  for (const auto& [name, value] : config.items()) {
    if (value.is_null()) {
      out.erase(name);
      continue;
    }
    auto it = out.find(name);
    if (it == out.end()) out[name] = without_nulls(value);
    else *it = merge_value(*it, value, name);
  }
  return out;
}

Json merge_lists(const Json& live, const Json& config, const ListType& type) {
  Json out = live;
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < out.size(); ++i) position.emplace(type.element_of(out[i]), i);
  for (const Json& item : config) {
    const std::string element = type.element_of(item);
    if (auto it = position.find(element); it != position.end()) {
      if (type.kind == ListKind::Associative) out[it->second] = merge_value(out[it->second], item, {});
      continue;
    }
    out.push_back(without_nulls(item));
    position.emplace(element, out.size() - 1);
  }
  return out;
}

Json merge_value(const Json& live, const Json& config, std::string_view field) {
  if (live.is_object() && config.is_object()) return merge_objects(live, config);
  if (live.is_array() && config.is_array()) {
    const ListType type = list_type_of(field, live, &config);
    if (type.kind != ListKind::Atomic) return merge_lists(live, config, type);
  }
  return without_nulls(config);
}

// ---- compare_objects -------------------------------------------------------------------------

// A member present on one side only, with everything below it.
void whole_subtree(const Json& value, FieldPath& path, std::string_view field, FieldSet& out) {
  out.insert(path);
  if (value.is_object()) {
    for (const auto& [name, child] : value.items()) {
      Descend d(path, member(name));
      whole_subtree(child, path, name, out);
    }
  } else if (value.is_array()) {
    const ListType type = list_type_of(field, value);
    if (type.kind == ListKind::Atomic) return;
    for (const Json& item : value) {
      Descend d(path, type.element_of(item));
      whole_subtree(item, path, {}, out);
    }
  }
}

void compare_value(const Json& before, const Json& after, FieldPath& path, std::string_view field,
                   Comparison& out);

void compare_members(const Json& before, const Json& after, FieldPath& path, Comparison& out) {
  for (const auto& [name, value] : before.items()) {
    Descend d(path, member(name));
    auto it = after.find(name);
    if (it == after.end()) whole_subtree(value, path, name, out.removed);
    else compare_value(value, *it, path, name, out);
  }
  for (const auto& [name, value] : after.items()) {
    if (before.contains(name)) continue;
    Descend d(path, member(name));
    whole_subtree(value, path, name, out.added);
  }
}

void compare_items(const Json& before, const Json& after, const ListType& type, FieldPath& path,
                   Comparison& out) {
  std::map<std::string, const Json*> after_items;
  for (const Json& item : after) after_items.emplace(type.element_of(item), &item);
  std::map<std::string, const Json*> before_items;
  for (const Json& item : before) {
    const std::string element = type.element_of(item);
    before_items.emplace(element, &item);
    Descend d(path, element);
    auto it = after_items.find(element);
    if (it == after_items.end()) whole_subtree(item, path, {}, out.removed);
    else if (type.kind == ListKind::Associative) compare_value(item, *it->second, path, {}, out);
  }
  for (const auto& [element, item] : after_items) {
    if (before_items.contains(element)) continue;
    Descend d(path, element);
    whole_subtree(*item, path, {}, out.added);
  }
}

void compare_value(const Json& before, const Json& after, FieldPath& path, std::string_view field,
                   Comparison& out) {
  if (before.is_object() && after.is_object()) {
    compare_members(before, after, path, out);
    return;
  }
  if (before.is_array() && after.is_array()) {
    const ListType type = list_type_of(field, before, &after);
    if (type.kind != ListKind::Atomic) {
      compare_items(before, after, type, path, out);
      return;
    }
  }
  if (before != after) out.modified.insert(path);
}

// ---- remove_field ----------------------------------------------------------------------------

// True when `node` is left empty by the removal (its parent then drops it as well).
bool remove_below(Json& node, const FieldPath& path, std::size_t at, std::string_view field) {
  const std::string& element = path[at];
  const bool last = at + 1 == path.size();
  if (element.starts_with("f:")) {
    if (!node.is_object()) return false;
    const std::string name = element.substr(2);
    auto it = node.find(name);
    if (it == node.end()) return false;
    if (!last && !remove_below(*it, path, at + 1, name)) return false;
    node.erase(name);
    return node.empty();
  }
  if (!node.is_array()) return false;
  const ListType type = list_type_of(field, node);
  if (type.kind == ListKind::Atomic) return false;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (type.element_of(node[i]) != element) continue;
    if (!last && !remove_below(node[i], path, at + 1, {})) return false;
    node.erase(i);
    return node.empty();
  }
  return false;
}

}  // namespace

FieldSet fields_set_by(const Json& configuration) {
  FieldSet out;
  FieldPath path;
  if (configuration.is_object()) collect_members(configuration, path, out);
  return out;
}

Json merge_configuration(const Json& live, const Json& configuration) {
  return merge_objects(live.is_object() ? live : Json::object(), configuration);
}

Comparison compare_objects(const Json& before, const Json& after) {
  Comparison out;
  FieldPath path;
  compare_value(before.is_object() ? before : Json::object(), after.is_object() ? after : Json::object(), path, {},
                out);
  return out;
}

void remove_field(Json& object, const FieldPath& path) {
  if (!path.empty()) remove_below(object, path, 0, {});
}

}  // namespace rr::cluster_detail

namespace rr {

Json merge_apply_configuration(const Json& object, const Json& configuration) {
  return cluster_detail::merge_configuration(object, configuration);
}

}  // namespace rr
