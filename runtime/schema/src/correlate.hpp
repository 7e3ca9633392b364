// Correlation of a new value's parts with the old object's, as upstream's ratcheting and CEL
// transition rules do it: object properties by name, map values by key, list-type map items by
// their keys, set items by value; items of atomic lists are not correlated.
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>

#include "node.hpp"

namespace rr::schema {

const Json* old_member(const Json* old, std::string_view name);

// The old list's items indexed by identity, built once per list.
class ListCorrelation {
 public:
  ListCorrelation(const Node& list, const Json* old);
  const Json* find(const Json& item) const;  // nullptr when not correlated

 private:
  const Node& list_;
  std::unordered_map<std::string, const Json*> by_identity_;
};

// An item's identity in a set (its value) or a list-type map (its keys), as shown in Duplicate
// errors: a JSON string for strings, Go's %#v otherwise.
std::string item_identity(const Node& list, const Json& item);

}  // namespace rr::schema
