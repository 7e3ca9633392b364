#include "json_compare.hpp"

namespace corpus {
namespace {

bool go_empty(const rr::Json& v) {
  return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) || (v.is_object() && v.empty()) ||
         (v.is_array() && v.empty()) || (v.is_number() && v == 0) || (v.is_boolean() && !v.get<bool>());
}

std::string compare(const rr::Json& e, const rr::Json& a, const std::string& path, bool in_metadata) {
  if (e.is_object() && a.is_object()) {
    for (auto it = e.begin(); it != e.end(); ++it) {
      const std::string child = path + "/" + it.key();
      const bool meta = in_metadata || it.key() == "metadata";
      if (!a.contains(it.key())) {
        if (it.value().is_null()) continue;                  // pruned null
        if (in_metadata && go_empty(it.value())) continue;  // omitempty inside ObjectMeta
        return child + ": missing after the round trip (was " + it.value().dump() + ")";
      }
      if (auto d = compare(it.value(), a.at(it.key()), child, meta); !d.empty()) return d;
    }
    for (auto it = a.begin(); it != a.end(); ++it)
      if (!e.contains(it.key())) return path + "/" + it.key() + ": added by the round trip (" + it.value().dump() + ")";
    return {};
  }
  if (e.is_array() && a.is_array()) {
    if (e.size() != a.size()) return path + ": " + std::to_string(e.size()) + " items became " + std::to_string(a.size());
    for (std::size_t i = 0; i < e.size(); ++i)
      if (auto d = compare(e[i], a[i], path + "/" + std::to_string(i), in_metadata); !d.empty()) return d;
    return {};
  }
  if (e == a) return {};
  return (path.empty() ? std::string("/") : path) + ": " + e.dump() + " became " + a.dump();
}

}  // namespace

std::string first_difference(const rr::Json& expected, const rr::Json& actual) {
  return compare(expected, actual, "", false);
}

}  // namespace corpus
