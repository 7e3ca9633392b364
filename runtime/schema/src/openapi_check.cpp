// ValidateCustomResourceDefinitionOpenAPISchema of apiextensions-apiserver: keywords a CRD schema
// may not use and the rules of the x-kubernetes-* extensions, per node in walk order.
#include <algorithm>
#include <set>

#include "error_text.hpp"
#include "schema_json.hpp"
#include "structural.hpp"

namespace rr::schema {
namespace {

// Go's %#v of a []string, as field.Invalid shows x-kubernetes-list-map-keys.
std::string go_strings(const Json& list) {
  std::string s = "[]string{";
  for (std::size_t i = 0; i < list.size(); ++i) s += (i ? ", " : "") + list[i].dump();
  return s + "}";
}

class Checker {
 public:
  explicit Checker(std::vector<FieldError>& out) : out_(out) {}

  // `meta_default`: the reason defaults are refused here (top-level apiVersion, kind, metadata).
  void node(const Json& s, const std::string& at, bool root, const std::string& meta_default) {
    if (!s.is_object()) return;
    keywords(s, at, meta_default);
    const Json* props = member(s, "properties");
    const bool has_props = props && props->is_object() && !props->empty();
    if (const Json* ap = member(s, "additionalProperties")) {
      if (has_props && (ap->is_object() || *ap == false))
        forbidden(at + ".additionalProperties", "additionalProperties and properties are mutual exclusive");
      if (ap->is_object()) node(*ap, at + ".additionalProperties", false, "");
    }
    const bool resource = root || flag(s, "x-kubernetes-embedded-resource");
    if (has_props)
      for (const auto& [name, child] : props->items()) {
        const bool meta_field = resource && (name == "metadata" || name == "kind" || name == "apiVersion");
        node(child, at + ".properties[" + name + "]", false, root && meta_field ? "in top-level " + name : "");
      }
    if (const Json* n = member(s, "not")) node(*n, at + ".not", false, "");
    for (const char* j : {"allOf", "oneOf", "anyOf"})
      if (const Json* list = member(s, j); list && list->is_array())
        for (std::size_t i = 0; i < list->size(); ++i)
          node((*list)[i], at + "." + j + "[" + std::to_string(i) + "]", false, "");
    if (const Json* items = member(s, "items")) {
      if (items->is_object()) node(*items, at + ".items", false, "");
      if (items->is_array())
        for (std::size_t i = 0; i < items->size(); ++i)
          node((*items)[i], at + ".items[" + std::to_string(i) + "]", false, "");
    }
    extensions(s, at);
  }

 private:
  void forbidden(std::string at, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Forbidden, {}, why));
  }
  void invalid(std::string at, std::string_view shown, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Invalid, shown, why));
  }
  void required(std::string at, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Required, {}, why));
  }

  // specStandardValidatorV3.validate and uniqueItems.
  void keywords(const Json& s, const std::string& at, const std::string& meta_default) {
    static const std::set<std::string, std::less<>> kTypes = {"array",  "boolean", "integer",
                                                              "number", "object",  "string"};
    const std::string type = string_member(s, "type");
    if (!type.empty() && !kTypes.count(type))
      out_.push_back(field_error(at + ".type", FieldErrorType::NotSupported, go_quoted(type),
                                 "supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", "
                                 "\"string\""));
    if (member(s, "default") && !meta_default.empty()) forbidden(at + ".default", "must not be set " + meta_default);
    for (const char* key : {"id", "additionalItems", "patternProperties", "definitions", "dependencies", "$ref"})
      if (member(s, key)) forbidden(at + "." + key, std::string(key) + " is not supported");
    if (type == "null") forbidden(at + ".type", "type cannot be set to null, use nullable as an alternative");
    if (const Json* items = member(s, "items"); items && items->is_array())
      forbidden(at + ".items", "items must be a schema object and not an array");
    if (flag(s, "uniqueItems"))
      forbidden(at + ".uniqueItems",
                "uniqueItems cannot be set to true since the runtime complexity becomes quadratic");
  }

  void extensions(const Json& s, const std::string& at) {
    const std::string type = string_member(s, "type");
    if (const Json* p = member(s, "x-kubernetes-preserve-unknown-fields"); p && *p == false)
      invalid(at + ".x-kubernetes-preserve-unknown-fields", "false", "must be true or undefined");
    if (const Json* mt = member(s, "x-kubernetes-map-type")) {
      if (type != "object") type_for(at, type, "must be object if x-kubernetes-map-type is specified");
      if (*mt != "atomic" && *mt != "granular")
        out_.push_back(field_error(at + ".x-kubernetes-map-type", FieldErrorType::NotSupported, mt->dump(),
                                   "supported values: \"atomic\", \"granular\""));
    }
    const Json* lt = member(s, "x-kubernetes-list-type");
    const std::string list_type = lt && lt->is_string() ? lt->get<std::string>() : std::string();
    const Json* items = member(s, "items");
    if (lt && type != "array") type_for(at, type, "must be array if x-kubernetes-list-type is specified");
    else if (list_type == "set" && items && items->is_object()) set_items(*items, at);
    if (lt && list_type != "atomic" && list_type != "set" && list_type != "map")
      out_.push_back(field_error(at + ".x-kubernetes-list-type", FieldErrorType::NotSupported, lt->dump(),
                                 "supported values: \"atomic\", \"set\", \"map\""));
    const Json* keys = member(s, "x-kubernetes-list-map-keys");
    const bool has_keys = keys && keys->is_array() && !keys->empty();
    if (has_keys && !lt)
      required(at + ".x-kubernetes-list-type", "must be map if x-kubernetes-list-map-keys is non-empty");
    else if (has_keys && list_type != "map")
      invalid(at + ".x-kubernetes-list-type", lt->dump(), "must be map if x-kubernetes-list-map-keys is non-empty");
    if (list_type == "map") map_list(at, keys, items);
    if ((list_type == "map" || list_type == "set") && items && items->is_object())
      map_set_keys(s, at, list_type, *items);
  }

  void type_for(const std::string& at, const std::string& type, std::string_view why) {
    if (type.empty()) required(at + ".type", why);
    else invalid(at + ".type", go_quoted(type), why);
  }

  void set_items(const Json& items, const std::string& at) {
    const std::string it = string_member(items, "type");
    const Json* ilt = member(items, "x-kubernetes-list-type");
    const std::string shown = ilt ? ilt->dump() : "\"null\"";  // upstream shows the items' list type in both cases
    if (it == "array" && ilt && *ilt != "atomic")
      invalid(at + ".items.x-kubernetes-list-type", shown,
              "must be atomic as item of a list with x-kubernetes-list-type=set");
    if (it == "object" && string_member(items, "x-kubernetes-map-type") != "atomic")
      invalid(at + ".items.x-kubernetes-map-type", shown,
              "must be atomic as item of a list with x-kubernetes-list-type=set");
  }

  void map_list(const std::string& at, const Json* keys, const Json* items) {
    if (!keys || !keys->is_array() || keys->empty())
      required(at + ".x-kubernetes-list-map-keys", "must not be empty if x-kubernetes-list-type is map");
    if (!items) return required(at + ".items", "must have a schema if x-kubernetes-list-type is map");
    if (!items->is_object())
      return invalid(at + ".items", go_value(*items),
                     "must only have a single schema if x-kubernetes-list-type is map");
    const std::string it = string_member(*items, "type");
    if (it != "object")
      return invalid(at + ".items.type", go_quoted(it),
                     "must be object if parent array's x-kubernetes-list-type is map");
    if (!keys || !keys->is_array()) return;
    const Json* props = member(*items, "properties");
    std::set<std::string> seen;
    for (const Json& k : *keys) {
      const std::string key = k.is_string() ? k.get<std::string>() : std::string();
      if (const Json* p = props ? member(*props, key) : nullptr) {
        const std::string pt = string_member(*p, "type");
        if (pt == "array" || pt == "object")
          invalid(at + ".items.properties[" + key + "].type", go_quoted(it),
                  "must be a scalar type if parent array's x-kubernetes-list-type is map");
      } else {
        invalid(at + ".x-kubernetes-list-map-keys", go_strings(*keys), "entries must all be names of item properties");
      }
      if (!seen.insert(key).second)
        invalid(at + ".x-kubernetes-list-map-keys", go_strings(*keys), "must not contain duplicate entries");
    }
  }

  // validateMapListKeysMapSet: set and map items are not nullable; map keys are required or defaulted.
  void map_set_keys(const Json& s, const std::string& at, const std::string& list_type, const Json& items) {
    if (flag(items, "nullable"))
      forbidden(at + ".items.nullable", "cannot be nullable when x-kubernetes-list-type is " + list_type);
    if (list_type != "map") return;
    const Json* keys = member(s, "x-kubernetes-list-map-keys");
    const Json* props = member(items, "properties");
    const Json* req = member(items, "required");
    if (!keys || !keys->is_array() || !props) return;
    for (const Json& k : *keys) {
      const std::string key = k.is_string() ? k.get<std::string>() : std::string();
      const Json* p = member(*props, key);
      if (!p) continue;
      const bool is_required = req && req->is_array() && std::find(req->begin(), req->end(), k) != req->end();
      const std::string prop_at = at + ".items.properties[" + key + "]";
      if (!is_required && !member(*p, "default"))
        required(prop_at + ".default",
                 "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property");
      if (flag(*p, "nullable"))
        forbidden(prop_at + ".nullable", "this property is in x-kubernetes-list-map-keys, so it cannot be nullable");
    }
  }

  std::vector<FieldError>& out_;
};

}  // namespace

std::vector<FieldError> openapi_errors(const Json& schema, const std::string& root_path) {
  std::vector<FieldError> out;
  Checker(out).node(schema, root_path, true, "");
  return out;
}

}  // namespace rr::schema
