#include "apply_field_set.hpp"

#include <algorithm>
#include <iterator>

namespace rr::cluster_detail {

namespace {

bool starts_with(const FieldPath& path, const FieldPath& prefix) {
  return path.size() >= prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin());
}

// structured-merge-diff's Set.Iterate: members of a level before the levels below it.
bool before_in_merge_order(const FieldPath& a, const FieldPath& b) {
  const auto [ia, ib] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
  const std::size_t common = static_cast<std::size_t>(ia - a.begin());
  if (ia == a.end()) return ib != b.end();  // a is a prefix of b: the member comes first
  if (ib == b.end()) return false;
  const bool a_member_here = a.size() == common + 1;
  const bool b_member_here = b.size() == common + 1;
  if (a_member_here != b_member_here) return a_member_here;
  return *ia < *ib;
}

void decode_level(const Json& level, FieldPath& prefix, std::set<FieldPath>& out, bool& ok) {
  for (const auto& [key, child] : level.items()) {
    if (!child.is_object()) {
      ok = false;
      return;
    }
    if (key == ".") {
      if (!prefix.empty()) out.insert(prefix);
      continue;
    }
    prefix.push_back(key);
    if (child.empty()) out.insert(prefix);
    else decode_level(child, prefix, out, ok);
    prefix.pop_back();
    if (!ok) return;
  }
}

// A member with nothing below it is {}; a member with members below it gets ".".
Json& node_at(Json& root, const FieldPath& path) {
  Json* node = &root;
  for (const auto& element : path) {
    Json& child = (*node)[element];
    if (child.is_null()) child = Json::object();
    node = &child;
  }
  return *node;
}

void collapse_leaf_markers(Json& node) {
  for (auto& [key, child] : node.items()) {
    if (key == ".") continue;
    if (child.size() == 1 && child.contains(".")) child = Json::object();
    else collapse_leaf_markers(child);
  }
}

}  // namespace

void FieldSet::insert(FieldPath path) { paths_.insert(std::move(path)); }

bool FieldSet::contains_at_or_below(const FieldPath& path) const {
  auto it = paths_.lower_bound(path);
  return it != paths_.end() && starts_with(*it, path);
}

FieldSet FieldSet::united_with(const FieldSet& other) const {
  FieldSet out = *this;
  out.paths_.insert(other.paths_.begin(), other.paths_.end());
  return out;
}

FieldSet FieldSet::minus(const FieldSet& other) const {
  FieldSet out;
  std::set_difference(paths_.begin(), paths_.end(), other.paths_.begin(), other.paths_.end(),
                      std::inserter(out.paths_, out.paths_.end()));
  return out;
}

FieldSet FieldSet::intersected_with(const FieldSet& other) const {
  FieldSet out;
  std::set_intersection(paths_.begin(), paths_.end(), other.paths_.begin(), other.paths_.end(),
                        std::inserter(out.paths_, out.paths_.end()));
  return out;
}

FieldSet FieldSet::filtered(const std::function<bool(const FieldPath&)>& keep) const {
  FieldSet out;
  for (const auto& path : paths_) {
    if (keep(path)) out.paths_.insert(out.paths_.end(), path);
  }
  return out;
}

std::vector<FieldPath> FieldSet::in_merge_order() const {
  std::vector<FieldPath> out(paths_.begin(), paths_.end());
  std::sort(out.begin(), out.end(), before_in_merge_order);
  return out;
}

Json FieldSet::to_fields_v1() const {
  Json root = Json::object();
  for (const auto& path : paths_) node_at(root, path)["."] = Json::object();
  collapse_leaf_markers(root);
  return root;
}

std::optional<FieldSet> FieldSet::from_fields_v1(const Json& fields) {
  if (!fields.is_object()) return std::nullopt;
  FieldSet out;
  FieldPath prefix;
  bool ok = true;
  decode_level(fields, prefix, out.paths_, ok);
  if (!ok) return std::nullopt;
  return out;
}

std::string display_path(const FieldPath& path) {
  std::string out;
  for (const auto& element : path) {
    const std::string_view kind = std::string_view(element).substr(0, 2);
    const std::string rest = element.substr(std::min<std::size_t>(2, element.size()));
    if (kind == "f:") {
      out += "." + rest;
    } else if (kind == "v:") {
      out += "[=" + rest + "]";
    } else if (kind == "i:") {
      out += "[" + rest + "]";
    } else if (kind == "k:") {
      // Key fields in name order, values as JSON: [containerPort=80,protocol="TCP"].
      const Json keys = Json::parse(rest, nullptr, false);
      std::string fields;
      if (keys.is_object()) {
        for (const auto& [name, value] : keys.items()) fields += (fields.empty() ? "" : ",") + name + "=" + value.dump();
      }
      out += "[" + fields + "]";
    } else {
      out += element;
    }
  }
  return out;
}

}  // namespace rr::cluster_detail
