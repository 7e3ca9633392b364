// The compiled schema tree: what a node says, parsed once from the JSON so validation, defaulting
// and pruning never read the schema document again. Junctors hold value validations only.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/json.hpp"
#include "rr/core/pattern.hpp"
#include "rr/core/validator.hpp"
#include "rr/schema/schema.hpp"

namespace rr::schema {

enum class ListType { Unspecified, Atomic, Set, Map };

struct Node {
  std::string type;  // "" (unspecified), "object", "array", "string", "integer", "number", "boolean"
  bool nullable = false;
  bool int_or_string = false;
  bool preserve_unknown = false;
  bool embedded = false;
  bool atomic_map = false;  // x-kubernetes-map-type: atomic: CEL does not correlate its members
  std::optional<Json> default_value;

  std::map<std::string, std::unique_ptr<Node>, std::less<>> properties;
  std::unique_ptr<Node> additional;   // additionalProperties as a schema (true: an empty node)
  bool additional_is_schema = false;  // false for additionalProperties: true, which kube-openapi does not visit
  std::unique_ptr<Node> items;
  std::vector<std::string> required;
  ListType list_type = ListType::Unspecified;
  std::vector<std::string> list_map_keys;

  // Value validations.
  std::optional<double> minimum, maximum, multiple_of;
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<std::int64_t> min_length, max_length, min_items, max_items, min_properties, max_properties;
  std::vector<std::string> enum_json;  // each allowed value as canonical JSON text
  std::unique_ptr<Pattern> pattern;
  Format format = Format::None;  // what rr::Validator checks
  std::string format_name;       // the format as written, when apiextensions keeps it (its supported list)
  std::vector<std::unique_ptr<Node>> all_of, any_of, one_of;
  std::unique_ptr<Node> not_;

  std::unique_ptr<NodeCheck> check;  // the node's x-kubernetes-validations, when a factory gave one
};

}  // namespace rr::schema
