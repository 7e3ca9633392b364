// What the schema says about one value beyond its C++ type: documentation, validation, list and
// map semantics, the default. Resolved by sema from the parsed schema and owned by the model, so
// backends never read the parsed input.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.hpp"

namespace rrgen {

// x-kubernetes-list-type.
enum class ListType { Unspecified, Atomic, Set, Map };
// x-kubernetes-map-type.
enum class MapType { Unspecified, Granular, Atomic };

// The spelling in the schema; empty for Unspecified.
constexpr std::string_view to_string(ListType t) {
  switch (t) {
    case ListType::Atomic: return "atomic";
    case ListType::Set: return "set";
    case ListType::Map: return "map";
    case ListType::Unspecified: break;
  }
  return {};
}

// One x-kubernetes-validations entry: checked by the API server, carried as documentation.
struct ValidationRule {
  std::string rule, message, message_expression, reason, field_path;
  bool optional_old_self = false;
};

struct Constraints {
  Location location;  // of the schema node
  std::string description;
  std::string format;

  std::optional<double> minimum, maximum, multiple_of;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
  std::optional<std::string> pattern;
  bool unique_items = false;

  ListType list_type = ListType::Unspecified;
  std::vector<std::string> list_map_keys;  // ListType::Map
  MapType map_type = MapType::Unspecified;

  std::vector<std::string> enum_json;       // each allowed value as compact JSON text
  std::vector<std::string> enum_strings;    // the same values decoded, when every one is a string
  std::optional<std::string> default_json;  // compact JSON text
  std::vector<ValidationRule> validations;
  std::vector<std::string> junctors_json;   // {"allOf": [...]} and the like, as JSON text

  // Set and map lists are compared and checked without regard to order, with unique items.
  bool unordered_list() const { return list_type == ListType::Set || list_type == ListType::Map; }
};

}  // namespace rrgen
