// An openAPIV3Schema node as `rrgen crd` writes it, and its YAML. Only what the builder sets is
// written, in one fixed key order, so a CRD's text is a function of the types.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "support/yaml_writer.hpp"

namespace rrgen {

struct SchemaNode {
  std::string name;  // a property's name (an entry of its parent's `properties`)
  std::string description;
  std::string type;  // "" for int-or-string and preserve-unknown-fields nodes
  std::string format;
  std::vector<Yaml> enum_values;
  std::optional<Yaml> default_value;
  bool nullable = false;
  std::optional<std::string> minimum, maximum, multiple_of;  // JSON numbers as written
  bool exclusive_minimum = false, exclusive_maximum = false;
  std::optional<long long> min_length, max_length, min_items, max_items, min_properties, max_properties;
  bool unique_items = false;
  std::string pattern;
  bool int_or_string = false;
  bool any_of_int_or_string = false;  // anyOf: [integer, string] (controller-gen's int-or-string)
  bool preserve_unknown = false;
  std::string list_type, map_type;
  std::vector<std::string> list_map_keys;
  std::vector<std::string> required;
  std::vector<SchemaNode> properties;                                         // declaration order, each with its `name`
  std::vector<SchemaNode> items;                                              // arrays: one
  std::vector<SchemaNode> additional_properties;                              // maps: one
  std::vector<std::vector<std::pair<std::string, std::string>>> validations;  // x-kubernetes-validations

  const SchemaNode* property(const std::string& property_name) const;
  // Appends `node` as the property `property_name`.
  void add_property(std::string property_name, SchemaNode node);
};

Yaml schema_yaml(const SchemaNode& node);

}  // namespace rrgen
