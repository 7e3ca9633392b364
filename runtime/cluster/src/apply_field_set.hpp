// Sets of field paths, as structured-merge-diff keeps them for server-side apply, and their
// FieldsV1 encoding in metadata.managedFields.
//
// A path is a list of path elements, each already in its FieldsV1 spelling:
//   "f:<name>"   a member of an object ("f:spec", "f:replicas")
//   "k:<json>"   an item of an associative list, by its key fields (k:{"name":"nginx"})
//   "v:<json>"   an item of a set list, by its value (v:"example.com/finalizer")
// A set holds paths as members; FieldsV1 nests them as a trie where "." marks a path that is a
// member and also has members below it.
#pragma once
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::cluster_detail {

using FieldPath = std::vector<std::string>;

class FieldSet {
 public:
  FieldSet() = default;

  void insert(FieldPath path);
  bool contains(const FieldPath& path) const { return paths_.contains(path); }
  // True when `path` or a path below it is a member.
  bool contains_at_or_below(const FieldPath& path) const;
  bool empty() const noexcept { return paths_.empty(); }
  std::size_t size() const noexcept { return paths_.size(); }

  FieldSet united_with(const FieldSet& other) const;
  FieldSet minus(const FieldSet& other) const;
  FieldSet intersected_with(const FieldSet& other) const;
  // Only the members for which `keep` is true.
  FieldSet filtered(const std::function<bool(const FieldPath&)>& keep) const;

  // Members in structured-merge-diff's iteration order: at each level the members first, then
  // the levels below (the order conflicts are reported in).
  std::vector<FieldPath> in_merge_order() const;
  const std::set<FieldPath>& paths() const noexcept { return paths_; }

  // {"f:spec":{"f:replicas":{}},"f:metadata":{"f:labels":{".":{},"f:app":{}}}}
  Json to_fields_v1() const;
  // nullopt when `fields` is not a FieldsV1 trie (an object of objects).
  static std::optional<FieldSet> from_fields_v1(const Json& fields);

  bool operator==(const FieldSet&) const = default;

 private:
  std::set<FieldPath> paths_;
};

// The path as the API server prints it in conflicts: .spec.containers[name="nginx"].image,
// .metadata.finalizers[="x"].
std::string display_path(const FieldPath& path);

}  // namespace rr::cluster_detail
