// A case of the built-in validation tables (tests/data/builtin/*.json) as an object: the table's
// valid base with the case's JSON pointers removed, then set. Shared by builtin_cases_test.cpp
// and rr::manifest_check's agreement test, which runs the same cases through other paths.
#pragma once
#include "rr/core/json.hpp"

namespace rr::validation_test {

inline Json case_object(const Json& base, const Json& set, const Json& remove) {
  Json out = base;
  if (remove.is_array()) {
    for (const Json& p : remove) {
      const Json::json_pointer ptr(p.get<std::string>());
      out.at(ptr.parent_pointer()).erase(ptr.back());
    }
  }
  if (set.is_object()) {
    for (const auto& [p, v] : set.items()) out[Json::json_pointer(p)] = v;
  }
  return out;
}

}  // namespace rr::validation_test
