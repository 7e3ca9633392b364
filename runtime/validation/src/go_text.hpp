// How Go prints the values the API server's messages show: encoding/json strings (with its HTML
// escaping) and %#v of a []string.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::validation::detail {

std::string go_json_string(std::string_view s);                      // json.Marshal of a Go string
std::string go_json(const Json& value);                              // json.Marshal of a decoded JSON value
std::string go_string_slice(const std::vector<std::string>& v);      // %#v: []string{"a", "b"}
std::string go_json_string_list(const std::vector<std::string>& v);  // json.Marshal of a []string

// Member access that treats a missing or wrongly typed member as Go's zero value.
std::string_view string_member(const Json& object, std::string_view key);
const Json* member(const Json& object, std::string_view key);
std::vector<std::string> string_list(const Json& list);  // the strings of a JSON array; others skipped
// sets.NewString(now...).Difference(old).List(): sorted, each once.
std::vector<std::string> added_strings(const Json& now, const Json& old);
std::string child(std::string_view path, std::string_view name);  // path + "." + name
std::string index(std::string_view path, std::size_t i);          // path + "[i]"

}  // namespace rr::validation::detail
