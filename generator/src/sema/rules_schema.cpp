#include "sema/rules_schema.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace rrgen {
namespace {

using nlohmann::ordered_json;

// The int-or-string idiom (anyOf integer or string beside x-kubernetes-int-or-string): the typed
// member (rr::IntOrString, rr::Quantity) holds nothing else, so it needs no engine.
bool int_or_string_idiom(const Schema& s) {
  static const ordered_json idiom = ordered_json::parse(R"({"anyOf":[{"type":"integer"},{"type":"string"}]})");
  return s.int_or_string && s.junctors_json.size() == 1 && ordered_json::parse(s.junctors_json[0]) == idiom;
}

// The node's own rules or junctors, which make it keep its whole subtree.
bool own_rules(const Schema& s) {
  return !s.validations.empty() || (!s.junctors_json.empty() && !int_or_string_idiom(s));
}

bool has_rules(const Schema& s) {
  if (own_rules(s)) return true;
  for (const auto& [name, p] : s.properties)
    if (has_rules(*p)) return true;
  return (s.items && has_rules(*s.items)) || (s.additional_properties && has_rules(*s.additional_properties));
}

// The keywords of one node that constrain a value or type it for CEL (not its subschemas).
// `with_default`: the node keeps its whole subtree (a default checked against a pruned subtree
// would not validate, e.g. a status default whose members were dropped).
void own_keywords(const Schema& s, ordered_json& j, bool with_default) {
  if (!s.type.empty()) j["type"] = s.type;
  if (!s.format.empty()) j["format"] = s.format;
  if (s.minimum) j["minimum"] = *s.minimum;
  if (s.maximum) j["maximum"] = *s.maximum;
  if (s.exclusive_minimum) j["exclusiveMinimum"] = true;
  if (s.exclusive_maximum) j["exclusiveMaximum"] = true;
  if (s.multiple_of) j["multipleOf"] = *s.multiple_of;
  if (s.min_length) j["minLength"] = *s.min_length;
  if (s.max_length) j["maxLength"] = *s.max_length;
  if (s.min_items) j["minItems"] = *s.min_items;
  if (s.max_items) j["maxItems"] = *s.max_items;
  if (s.min_properties) j["minProperties"] = *s.min_properties;
  if (s.max_properties) j["maxProperties"] = *s.max_properties;
  if (s.pattern) j["pattern"] = *s.pattern;
  if (s.nullable) j["nullable"] = true;
  if (s.int_or_string) j["x-kubernetes-int-or-string"] = true;
  if (s.preserve_unknown) j["x-kubernetes-preserve-unknown-fields"] = true;
  if (s.embedded_resource) j["x-kubernetes-embedded-resource"] = true;
  if (!s.map_type.empty()) j["x-kubernetes-map-type"] = s.map_type;
  if (!s.required.empty()) j["required"] = s.required;
  // Kept under whole subtrees: a list-type map's key must be required or defaulted, or the schema
  // does not compile.
  if (with_default && s.default_json) j["default"] = ordered_json::parse(*s.default_json);
  if (!s.enum_json.empty()) {
    ordered_json values = ordered_json::array();
    for (const auto& v : s.enum_json) values.push_back(ordered_json::parse(v));
    j["enum"] = std::move(values);
  }
  for (const auto& junctor : s.junctors_json) j.update(ordered_json::parse(junctor));
  if (!s.validations.empty()) {
    ordered_json rules = ordered_json::array();
    for (const auto& r : s.validations) {
      ordered_json jr = {{"rule", r.rule}};
      if (!r.message.empty()) jr["message"] = r.message;
      if (!r.message_expression.empty()) jr["messageExpression"] = r.message_expression;
      if (!r.reason.empty()) jr["reason"] = r.reason;
      if (!r.field_path.empty()) jr["fieldPath"] = r.field_path;
      if (r.optional_old_self) jr["optionalOldSelf"] = true;
      rules.push_back(std::move(jr));
    }
    j["x-kubernetes-validations"] = std::move(rules);
  }
}

// `full`: the node is at or under a node with rules or junctors, so nothing below is dropped.
// `keep`: property names kept whatever they hold (a list-type map's keys).
ordered_json node(const Schema& s, bool full, const std::vector<std::string>& keep = {}) {
  full = full || own_rules(s);
  ordered_json j = ordered_json::object();
  own_keywords(s, j, full);
  ordered_json props = ordered_json::object();
  for (const auto& [name, p] : s.properties) {
    const bool kept = std::find(keep.begin(), keep.end(), name) != keep.end();
    if (full || kept || has_rules(*p)) props[name] = node(*p, full || kept);
  }
  if (!full) {
    // Members dropped here are pruned before the check: what counts or requires them would see
    // them missing (and a finding there withholds every rule).
    j.erase("minProperties");
    j.erase("maxProperties");
    if (auto required = j.find("required"); required != j.end()) {
      ordered_json kept_required = ordered_json::array();
      for (const auto& name : *required)
        if (props.contains(name.get<std::string>())) kept_required.push_back(name);
      if (kept_required.empty()) j.erase("required");
      else *required = std::move(kept_required);
    }
  }
  if (!props.empty()) j["properties"] = std::move(props);
  if (s.items && (full || has_rules(*s.items))) {
    if (!s.list_type.empty()) j["x-kubernetes-list-type"] = s.list_type;
    if (!s.list_map_keys.empty()) j["x-kubernetes-list-map-keys"] = s.list_map_keys;
    j["items"] = node(*s.items, full, s.list_map_keys);
  }
  if (s.additional_properties && (full || has_rules(*s.additional_properties)))
    j["additionalProperties"] = node(*s.additional_properties, full);
  else if (s.additional_properties_any && full) j["additionalProperties"] = true;
  return j;
}

}  // namespace

std::string rules_schema_json(const Schema& root) {
  if (!has_rules(root)) return {};
  return node(root, false).dump();
}

}  // namespace rrgen
