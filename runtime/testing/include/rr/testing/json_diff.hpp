// A field-level difference of two JSON documents in the spirit of go-cmp: one line per leaf that
// differs, naming its JSON path, expected value after '-' and actual value after '+':
//
//   spec.fields["foo"]: -"bar" +"baz"
//   spec.image: -"nginx:1" +(absent)
//   status.conditions[1]: -(absent) +{"reason":"Ready","status":"True","type":"Ready"}
//
// A difference at the root itself (two scalars) has no path: `  -41 +42`.
// Each line starts with two spaces so the block reads well under a "differs (-expected, +actual):"
// header. Object members are visited in key order and array elements by index, so the output is
// deterministic.
#pragma once
#include <string>
#include <string_view>

#include "rr/core/fwd.hpp"

namespace rr::testing {

// "" when the documents are equal (numbers compare by value: 1 == 1.0).
std::string diff_json(const Json& expected, const Json& actual);

// Compact JSON text, as the harness prints values in "not observed" and "unexpected" messages.
std::string describe_json(const Json& value);

// The path of member `key` under `parent_path`: `.key` for field names, `["key"]` for keys that
// are not identifiers and for the keys of well-known maps (labels, annotations, data, fields ...).
std::string member_path(std::string_view parent_path, std::string_view parent_key, std::string_view key);

}  // namespace rr::testing
