// NamespacedName: the key of an object, and what a reconcile Request carries.
#pragma once
#include <compare>
#include <string>

namespace rr {

struct ObjectKey {
  std::string namespace_;  // "" for cluster-scoped objects
  std::string name;
  auto operator<=>(const ObjectKey&) const = default;
  // "ns/name", or "name" when cluster-scoped (as Go's types.NamespacedName.String()).
  std::string str() const { return namespace_.empty() ? name : namespace_ + "/" + name; }
};

}  // namespace rr
