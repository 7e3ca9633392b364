// Order-insensitive equality for x-kubernetes-list-type: set and map lists. For those lists the
// API server (server-side apply, CEL) treats order as meaningless, so generated operator== does too.
#pragma once
#include <cstddef>
#include <optional>
#include <vector>

#include "rr/core/nullable.hpp"
#include "rr/core/optional.hpp"

namespace rr {

// Same elements with the same multiplicity, in any order. Quadratic, without allocation: these
// lists are short (ports, conditions, env) and their elements need not be hashable or ordered.
template <class T>
bool unordered_equal(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::size_t in_a = 0, in_b = 0;
    for (const auto& x : a) in_a += (x == a[i]);
    for (const auto& x : b) in_b += (x == a[i]);
    if (in_a != in_b) return false;
  }
  return true;
}
template <AnyOptional O>
bool unordered_equal(const O& a, const O& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || unordered_equal(*a, *b);
}
template <class T>
bool unordered_equal(const Nullable<std::vector<T>>& a, const Nullable<std::vector<T>>& b) {
  if (a.is_absent() != b.is_absent() || a.has_value() != b.has_value()) return false;
  return !a.has_value() || unordered_equal(*a, *b);
}

}  // namespace rr
