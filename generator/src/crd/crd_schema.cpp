#include "crd/crd_schema.hpp"

namespace rrgen {

const SchemaNode* SchemaNode::property(const std::string& property_name) const {
  for (const SchemaNode& p : properties) {
    if (p.name == property_name) return &p;
  }
  return nullptr;
}

void SchemaNode::add_property(std::string property_name, SchemaNode node) {
  node.name = std::move(property_name);
  properties.push_back(std::move(node));
}

Yaml schema_yaml(const SchemaNode& s) {
  Yaml y = Yaml::map();
  if (!s.description.empty()) y.set("description", s.description);
  if (s.any_of_int_or_string) {
    y.set("anyOf", Yaml::seq().push(Yaml::map().set("type", "integer")).push(Yaml::map().set("type", "string")));
  }
  if (!s.type.empty()) y.set("type", s.type);
  if (!s.format.empty()) y.set("format", s.format);
  if (!s.enum_values.empty()) {
    Yaml values = Yaml::seq();
    for (const Yaml& v : s.enum_values) values.push(v);
    y.set("enum", std::move(values));
  }
  if (s.default_value) y.set("default", *s.default_value);
  if (s.nullable) y.set("nullable", Yaml::boolean(true));
  if (s.minimum) y.set("minimum", Yaml::raw(*s.minimum));
  if (s.exclusive_minimum) y.set("exclusiveMinimum", Yaml::boolean(true));
  if (s.maximum) y.set("maximum", Yaml::raw(*s.maximum));
  if (s.exclusive_maximum) y.set("exclusiveMaximum", Yaml::boolean(true));
  if (s.multiple_of) y.set("multipleOf", Yaml::raw(*s.multiple_of));
  if (s.min_length) y.set("minLength", Yaml::integer(*s.min_length));
  if (s.max_length) y.set("maxLength", Yaml::integer(*s.max_length));
  if (!s.pattern.empty()) y.set("pattern", s.pattern);
  if (s.min_items) y.set("minItems", Yaml::integer(*s.min_items));
  if (s.max_items) y.set("maxItems", Yaml::integer(*s.max_items));
  if (s.unique_items) y.set("uniqueItems", Yaml::boolean(true));
  if (s.min_properties) y.set("minProperties", Yaml::integer(*s.min_properties));
  if (s.max_properties) y.set("maxProperties", Yaml::integer(*s.max_properties));
  if (s.int_or_string) y.set("x-kubernetes-int-or-string", Yaml::boolean(true));
  if (s.preserve_unknown) y.set("x-kubernetes-preserve-unknown-fields", Yaml::boolean(true));
  if (!s.list_type.empty()) y.set("x-kubernetes-list-type", s.list_type);
  if (!s.list_map_keys.empty()) y.set("x-kubernetes-list-map-keys", Yaml::strings(s.list_map_keys));
  if (!s.map_type.empty()) y.set("x-kubernetes-map-type", s.map_type);
  if (!s.required.empty()) y.set("required", Yaml::strings(s.required));
  if (!s.properties.empty()) {
    Yaml props = Yaml::map();
    for (const SchemaNode& p : s.properties) props.set(p.name, schema_yaml(p));
    y.set("properties", std::move(props));
  }
  if (!s.additional_properties.empty()) y.set("additionalProperties", schema_yaml(s.additional_properties.front()));
  if (!s.items.empty()) y.set("items", schema_yaml(s.items.front()));
  if (!s.validations.empty()) {
    Yaml rules = Yaml::seq();
    for (const auto& rule : s.validations) {
      Yaml r = Yaml::map();
      for (const auto& [k, v] : rule) r.set(k, v);
      rules.push(std::move(r));
    }
    y.set("x-kubernetes-validations", std::move(rules));
  }
  return y;
}

}  // namespace rrgen
