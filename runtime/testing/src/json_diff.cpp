#include "rr/testing/json_diff.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "rr/core/json.hpp"

namespace rr::testing {
namespace {

// Members whose values are maps keyed by data, not fields of a schema: their keys read better
// as ["key"] (go-cmp prints map keys that way).
bool is_map_field(std::string_view key) {
  static constexpr std::array<std::string_view, 12> maps = {"allocatable", "annotations",  "binaryData", "capacity",
                                                            "data",        "fields",       "labels",     "limits",
                                                            "matchLabels", "nodeSelector", "requests",   "stringData"};
  return std::find(maps.begin(), maps.end(), key) != maps.end();
}

bool is_identifier(std::string_view key) {
  if (key.empty()) return false;
  auto alpha = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
  if (!alpha(key.front())) return false;
  return std::all_of(key.begin(), key.end(), [&](char c) { return alpha(c) || (c >= '0' && c <= '9'); });
}

std::string shown(const Json* value) { return value ? describe_json(*value) : std::string("(absent)"); }

void add_line(std::string& out, const std::string& path, const Json* expected, const Json* actual) {
  out += "  ";
  if (!path.empty()) out += path + ": ";
  out += "-";
  out += shown(expected);
  out += " +";
  out += shown(actual);
  out += '\n';
}

void diff_at(std::string& out, const std::string& path, std::string_view key, const Json* expected,
             const Json* actual) {
  if (expected && actual && expected->is_object() && actual->is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, v] : expected->items()) keys.insert(k);
    for (const auto& [k, v] : actual->items()) keys.insert(k);
    for (const auto& k : keys) {
      auto e = expected->find(k);
      auto a = actual->find(k);
      diff_at(out, member_path(path, key, k), k, e == expected->end() ? nullptr : &*e,
              a == actual->end() ? nullptr : &*a);
    }
    return;
  }
  if (expected && actual && expected->is_array() && actual->is_array()) {
    const std::size_t n = std::max(expected->size(), actual->size());
    for (std::size_t i = 0; i < n; ++i) {
      diff_at(out, path + "[" + std::to_string(i) + "]", {}, i < expected->size() ? &(*expected)[i] : nullptr,
              i < actual->size() ? &(*actual)[i] : nullptr);
    }
    return;
  }
  if (expected && actual && *expected == *actual) return;
  add_line(out, path, expected, actual);
}

}  // namespace

std::string member_path(std::string_view parent_path, std::string_view parent_key, std::string_view key) {
  std::string out(parent_path);
  if (is_identifier(key) && !is_map_field(parent_key)) {
    if (!out.empty()) out += '.';
    out += key;
  } else {
    out += '[';
    out += Json(std::string(key)).dump();
    out += ']';
  }
  return out;
}

std::string describe_json(const Json& value) { return value.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string diff_json(const Json& expected, const Json& actual) {
  std::string out;
  diff_at(out, "", {}, &expected, &actual);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

}  // namespace rr::testing
