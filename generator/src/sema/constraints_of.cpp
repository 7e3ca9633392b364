#include "sema/constraints_of.hpp"

#include <algorithm>

namespace rrgen {
namespace {

// The reader has already rejected any other x-kubernetes-list-type.
ListType list_type_of(const std::string& t) {
  if (t == "atomic") return ListType::Atomic;
  if (t == "set") return ListType::Set;
  if (t == "map") return ListType::Map;
  return ListType::Unspecified;
}

MapType map_type_of(const std::string& t) {
  if (t == "granular") return MapType::Granular;
  if (t == "atomic") return MapType::Atomic;
  return MapType::Unspecified;
}

}  // namespace

std::string json_string_value(const std::string& json) {
  std::string out;
  for (std::size_t i = 1; i + 1 < json.size(); ++i) {
    char c = json[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    c = json[++i];
    switch (c) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'u': {
        const unsigned v = static_cast<unsigned>(std::stoul(json.substr(i + 1, 4), nullptr, 16));
        out += static_cast<char>(v);  // only control characters are \u-escaped by to_json_text
        i += 4;
        break;
      }
      default: out += c;
    }
  }
  return out;
}

Constraints constraints_of(const Schema& s) {
  Constraints c;
  c.location = s.location;
  c.description = s.description;
  c.format = s.format;
  c.minimum = s.minimum;
  c.maximum = s.maximum;
  c.multiple_of = s.multiple_of;
  c.exclusive_minimum = s.exclusive_minimum;
  c.exclusive_maximum = s.exclusive_maximum;
  c.min_length = s.min_length;
  c.max_length = s.max_length;
  c.min_items = s.min_items;
  c.max_items = s.max_items;
  c.min_properties = s.min_properties;
  c.max_properties = s.max_properties;
  c.pattern = s.pattern;
  c.unique_items = s.unique_items;
  c.list_type = list_type_of(s.list_type);
  c.list_map_keys = s.list_map_keys;
  c.map_type = map_type_of(s.map_type);
  c.enum_json = s.enum_json;
  if (std::all_of(s.enum_json.begin(), s.enum_json.end(), [](const std::string& j) { return !j.empty() && j[0] == '"'; }))
    for (const auto& j : s.enum_json) c.enum_strings.push_back(json_string_value(j));
  c.default_json = s.default_json;
  for (const CelRule& r : s.validations)
    c.validations.push_back({r.rule, r.message, r.message_expression, r.reason, r.field_path, r.optional_old_self});
  c.junctors_json = s.junctors_json;
  return c;
}

}  // namespace rrgen
