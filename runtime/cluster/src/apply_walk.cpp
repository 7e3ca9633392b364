#include "apply_walk.hpp"

#include <map>
#include <string_view>

#include "apply_schema.hpp"
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

void collect(const Json& value, FieldPath& path, const FieldType& type, FieldSet& out);

// As structured-merge-diff's ToFieldSet: a member that is null or an empty object is a field of
// its own (`f:securityContext: {}`), and so is every key of a map (not a struct's field, as the
// schema says), whatever is below it.
void collect_members(const Json& object, FieldPath& path, const FieldType& type, FieldSet& out) {
  for (const auto& [name, value] : object.items()) {
    Descend d(path, member(name));
    collect(value, path, type.member(name), out);
    if (value.is_null() || (value.is_object() && value.empty()) || type.map_key(name)) out.insert(path);
  }
}

void collect(const Json& value, FieldPath& path, const FieldType& type, FieldSet& out) {
  if (value.is_object() && !type.atomic_object()) {
    collect_members(value, path, type, out);
    return;
  }
  if (value.is_array()) {
    const ListType list = type.list_type(value);
    if (list.kind == ListKind::Atomic) {
      out.insert(path);
      return;
    }
    const FieldType item_type = type.item();
    for (const Json& item : value) {
      Descend d(path, list.element_of(item));
      out.insert(path);
      if (item.is_object() && !item_type.atomic_object()) collect_members(item, path, item_type, out);
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

Json merge_value(const Json& live, const Json& config, const FieldType& type);

Json merge_objects(const Json& live, const Json& config, const FieldType& type) {
  Json out = live;
  for (const auto& [name, value] : config.items()) {
    if (value.is_null()) {
      out.erase(name);
      continue;
    }
    auto it = out.find(name);
    if (it == out.end()) out[name] = without_nulls(value);
    else *it = merge_value(*it, value, type.member(name));
  }
  return out;
}

Json merge_lists(const Json& live, const Json& config, const ListType& type, const FieldType& item_type) {
  Json out = live;
  std::map<std::string, std::size_t> position;
  for (std::size_t i = 0; i < out.size(); ++i) position.emplace(type.element_of(out[i]), i);
  for (const Json& item : config) {
    const std::string element = type.element_of(item);
    if (auto it = position.find(element); it != position.end()) {
      if (type.kind == ListKind::Associative) out[it->second] = merge_value(out[it->second], item, item_type);
      continue;
    }
    out.push_back(without_nulls(item));
    position.emplace(element, out.size() - 1);
  }
  return out;
}

Json merge_value(const Json& live, const Json& config, const FieldType& type) {
  if (live.is_object() && config.is_object() && !type.atomic_object()) return merge_objects(live, config, type);
  if (live.is_array() && config.is_array()) {
    const ListType list = type.list_type(live, &config);
    if (list.kind != ListKind::Atomic) return merge_lists(live, config, list, type.item());
  }
  return without_nulls(config);
}

// ---- compare_objects -------------------------------------------------------------------------

// A member present on one side only, with everything below it.
void whole_subtree(const Json& value, FieldPath& path, const FieldType& type, FieldSet& out) {
  out.insert(path);
  if (value.is_object() && !type.atomic_object()) {
    for (const auto& [name, child] : value.items()) {
      Descend d(path, member(name));
      whole_subtree(child, path, type.member(name), out);
    }
  } else if (value.is_array()) {
    const ListType list = type.list_type(value);
    if (list.kind == ListKind::Atomic) return;
    const FieldType item_type = type.item();
    for (const Json& item : value) {
      Descend d(path, list.element_of(item));
      whole_subtree(item, path, item_type, out);
    }
  }
}

void compare_value(const Json& before, const Json& after, FieldPath& path, const FieldType& type, Comparison& out);

void compare_members(const Json& before, const Json& after, FieldPath& path, const FieldType& type, Comparison& out) {
  for (const auto& [name, value] : before.items()) {
    Descend d(path, member(name));
    auto it = after.find(name);
    if (it == after.end()) whole_subtree(value, path, type.member(name), out.removed);
    else compare_value(value, *it, path, type.member(name), out);
  }
  for (const auto& [name, value] : after.items()) {
    if (before.contains(name)) continue;
    Descend d(path, member(name));
    whole_subtree(value, path, type.member(name), out.added);
  }
}

void compare_items(const Json& before, const Json& after, const ListType& type, const FieldType& item_type,
                   FieldPath& path, Comparison& out) {
  std::map<std::string, const Json*> after_items;
  for (const Json& item : after) after_items.emplace(type.element_of(item), &item);
  std::map<std::string, const Json*> before_items;
  for (const Json& item : before) {
    const std::string element = type.element_of(item);
    before_items.emplace(element, &item);
    Descend d(path, element);
    auto it = after_items.find(element);
    if (it == after_items.end()) whole_subtree(item, path, item_type, out.removed);
    else if (type.kind == ListKind::Associative) compare_value(item, *it->second, path, item_type, out);
  }
  for (const auto& [element, item] : after_items) {
    if (before_items.contains(element)) continue;
    Descend d(path, element);
    whole_subtree(*item, path, item_type, out.added);
  }
}

void compare_value(const Json& before, const Json& after, FieldPath& path, const FieldType& type, Comparison& out) {
  if (before.is_object() && after.is_object() && !type.atomic_object()) {
    compare_members(before, after, path, type, out);
    return;
  }
  if (before.is_array() && after.is_array()) {
    const ListType list = type.list_type(before, &after);
    if (list.kind != ListKind::Atomic) {
      compare_items(before, after, list, type.item(), path, out);
      return;
    }
  }
  if (before != after) out.modified.insert(path);
}

// ---- remove_field ----------------------------------------------------------------------------

// True when `node` is left empty by the removal (its parent then drops it as well).
bool remove_below(Json& node, const FieldPath& path, std::size_t at, const FieldType& type) {
  const std::string& element = path[at];
  const bool last = at + 1 == path.size();
  if (element.starts_with("f:")) {
    // An atomic object is one field: nothing below it is removed on its own.
    if (!node.is_object() || type.atomic_object()) return false;
    const std::string name = element.substr(2);
    auto it = node.find(name);
    if (it == node.end()) return false;
    if (!last && !remove_below(*it, path, at + 1, type.member(name))) return false;
    node.erase(name);
    return node.empty();
  }
  if (!node.is_array()) return false;
  const ListType list = type.list_type(node);
  if (list.kind == ListKind::Atomic) return false;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (list.element_of(node[i]) != element) continue;
    if (!last && !remove_below(node[i], path, at + 1, type.item())) return false;
    node.erase(i);
    return node.empty();
  }
  return false;
}

}  // namespace

FieldSet fields_set_by(const Json& configuration, const FieldType& type) {
  FieldSet out;
  FieldPath path;
  if (configuration.is_object()) collect_members(configuration, path, type, out);
  return out;
}

Json merge_configuration(const Json& live, const Json& configuration, const FieldType& type) {
  return merge_objects(live.is_object() ? live : Json::object(), configuration, type);
}

Comparison compare_objects(const Json& before, const Json& after, const FieldType& type) {
  Comparison out;
  FieldPath path;
  compare_members(before.is_object() ? before : Json::object(), after.is_object() ? after : Json::object(), path, type,
                  out);
  return out;
}

void remove_field(Json& object, const FieldPath& path, const FieldType& type) {
  if (!path.empty()) remove_below(object, path, 0, type);
}

}  // namespace rr::cluster_detail

namespace rr {

Json merge_apply_configuration(const Json& object, const Json& configuration) {
  return cluster_detail::merge_configuration(object, configuration, {});
}

}  // namespace rr
