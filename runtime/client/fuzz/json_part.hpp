// What the fuzz targets that check a JSON result against its source share.
#pragma once
#include "rr/core/json.hpp"

namespace rr::fuzz {

// Whether `part` is made of `whole`'s values: equal, an object of some of its members (each a
// part), or a list whose every item is a part of one of its items.
inline bool part_of(const rr::Json& part, const rr::Json& whole) {
  if (part == whole) return true;
  if (part.is_object() && whole.is_object()) {
    for (const auto& [key, value] : part.items()) {
      const auto it = whole.find(key);
      if (it == whole.end() || !part_of(value, *it)) return false;
    }
    return true;
  }
  if (part.is_array() && whole.is_array()) {
    for (const auto& item : part) {
      bool found = false;
      for (const auto& candidate : whole) found = found || part_of(item, candidate);
      if (!found) return false;
    }
    return true;
  }
  return false;
}

}  // namespace rr::fuzz
