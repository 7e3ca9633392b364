// Correlation of a new value's parts with the old object's, for ratcheting and for the NodeChecks'
// old_self. Schema ratcheting (apiextensions' ratcheting validator) correlates object properties
// and map values by name, list-type map items by their keys and items of lists without a list type
// by index; sets and atomic lists are not correlated. CEL correlates only list-type map items
// among list items, and no members of an x-kubernetes-map-type: atomic object.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>

#include "node.hpp"

namespace rr::schema {

const Json* old_member(const Json* old, std::string_view name);

// The old list's items as the new list's items correlate with them, built once per list.
class ListCorrelation {
 public:
  ListCorrelation(const Node& list, const Json* old);
  const Json* find(const Json& item, std::size_t index) const;  // nullptr when not correlated
  bool for_checks() const noexcept { return list_.list_type == ListType::Map; }

 private:
  const Node& list_;
  const Json* old_;
  std::unordered_map<std::string, const Json*> by_keys_;
};

// Upstream's CachedDeepEqual: equal, and every part correlated (an object with members the schema
// does not name, or a list whose items do not correlate, is never "unchanged").
bool unchanged(const Node& node, const Json& value, const Json& old);

// An item's identity in a set (its value) or a list-type map (its keys), as shown in Duplicate
// errors: Go's %q for strings, %#v otherwise.
std::string item_identity(const Node& list, const Json& item);

}  // namespace rr::schema
