// Structural-schema rules of apiextensions-apiserver (pkg/apis/apiextensions/validation and
// pkg/apiserver/schema's structural invariants), with their field paths and wording.
#include "structural.hpp"

#include <algorithm>
#include <string_view>

#include "error_text.hpp"

namespace rr::schema {
namespace {

enum class Level { Root, Field, Item };

const Json* member(const Json& node, std::string_view key) {
  if (!node.is_object()) return nullptr;
  auto it = node.find(key);
  return it == node.end() ? nullptr : &*it;
}

bool flag(const Json& node, std::string_view key) {
  const Json* v = member(node, key);
  return v && v->is_boolean() && v->get<bool>();
}

std::string type_of(const Json& node) {
  const Json* t = member(node, "type");
  return t && t->is_string() ? t->get<std::string>() : std::string();
}

std::string quote_type(std::string_view s) { return "\"" + std::string(s) + "\""; }

class Checker {
 public:
  explicit Checker(std::vector<FieldError>& out) : out_(out) {}

  void node(const Json& s, const std::string& at, Level level) {
    if (!s.is_object()) {
      out_.push_back(field_error(at, FieldErrorType::Invalid, {}, "must be a schema object"));
      return;
    }
    unsupported(s, at);
    generic(s, at, level);
    extensions(s, at);
    list_type(s, at);
    if (level == Level::Root) root_metadata(s, at);
    if (const Json* props = member(s, "properties"); props && props->is_object())
      for (const auto& [name, child] : props->items()) node(child, at + ".properties[" + name + "]", Level::Field);
    if (const Json* items = member(s, "items")) {
      if (items->is_array())
        out_.push_back(field_error(at + ".items", FieldErrorType::Forbidden, {},
                                   "items must be a schema object and not an array"));
      else node(*items, at + ".items", Level::Item);
    } else if (type_of(s) == "array") {
      out_.push_back(field_error(at + ".items", FieldErrorType::Required, {}, "must be specified"));
    }
    if (const Json* ap = member(s, "additionalProperties"); ap && ap->is_object())
      node(*ap, at + ".additionalProperties", Level::Field);
    junctors(s, at);
  }

 private:
  // Keywords a CRD schema may not use at all.
  void unsupported(const Json& s, const std::string& at) {
    static constexpr std::string_view kNot[] = {"$ref",         "definitions", "patternProperties",
                                                "dependencies", "id",          "$schema"};
    for (const auto key : kNot)
      if (member(s, key))
        out_.push_back(field_error(at + "." + std::string(key), FieldErrorType::Forbidden, {},
                                   std::string(key) + " is not supported"));
    if (flag(s, "uniqueItems"))
      out_.push_back(field_error(at + ".uniqueItems", FieldErrorType::Forbidden, {},
                                 "uniqueItems cannot be set to true since the runtime complexity becomes quadratic"));
    if (const Json* ap = member(s, "additionalProperties")) {
      if (ap->is_boolean() && !ap->get<bool>())
        out_.push_back(field_error(at + ".additionalProperties", FieldErrorType::Forbidden, {},
                                   "additionalProperties cannot be set to false"));
      const Json* props = member(s, "properties");
      if (props && props->is_object() && !props->empty())
        out_.push_back(field_error(at + ".additionalProperties", FieldErrorType::Forbidden, {},
                                   "additionalProperties and properties are mutual exclusive"));
    }
    if (type_of(s) == "null")
      out_.push_back(field_error(at + ".type", FieldErrorType::Forbidden, {},
                                 "type cannot be set to null, use nullable as an alternative"));
  }

  // Every specified node has a type, unless int-or-string, preserve-unknown-fields or embedded.
  void generic(const Json& s, const std::string& at, Level level) {
    const std::string type = type_of(s);
    const bool embedded = flag(s, "x-kubernetes-embedded-resource");
    if (type.empty() && !embedded && !flag(s, "x-kubernetes-int-or-string") &&
        !flag(s, "x-kubernetes-preserve-unknown-fields")) {
      const char* why = level == Level::Root   ? "must not be empty at the root"
                        : level == Level::Item ? "must not be empty for specified array items"
                                               : "must not be empty for specified object fields";
      out_.push_back(field_error(at + ".type", FieldErrorType::Required, {}, why));
    }
    if (level == Level::Root && member(s, "additionalProperties"))
      out_.push_back(
          field_error(at + ".additionalProperties", FieldErrorType::Forbidden, {}, "must not be used at the root"));
    if (level == Level::Root && member(s, "default"))
      out_.push_back(field_error(at + ".default", FieldErrorType::Forbidden, {}, "must not be used at the root"));
    if (embedded && type != "object") {
      if (type.empty())
        out_.push_back(field_error(at + ".type", FieldErrorType::Required, {},
                                   "must be object if x-kubernetes-embedded-resource is true"));
      else
        out_.push_back(field_error(at + ".type", FieldErrorType::Invalid, quote_type(type),
                                   "must be object if x-kubernetes-embedded-resource is true"));
    }
    const Json* props = member(s, "properties");
    if (embedded && !flag(s, "x-kubernetes-preserve-unknown-fields") && (!props || props->empty()))
      out_.push_back(field_error(
          at + ".properties", FieldErrorType::Required, {},
          "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields"));
  }

  void extensions(const Json& s, const std::string& at) {
    if (!flag(s, "x-kubernetes-int-or-string")) return;
    if (flag(s, "x-kubernetes-preserve-unknown-fields"))
      out_.push_back(field_error(at + ".x-kubernetes-preserve-unknown-fields", FieldErrorType::Invalid, "true",
                                 "must be false if x-kubernetes-int-or-string is true"));
    if (flag(s, "x-kubernetes-embedded-resource"))
      out_.push_back(field_error(at + ".x-kubernetes-embedded-resource", FieldErrorType::Invalid, "true",
                                 "must be false if x-kubernetes-int-or-string is true"));
  }

  void list_type(const Json& s, const std::string& at) {
    const Json* lt = member(s, "x-kubernetes-list-type");
    const Json* keys = member(s, "x-kubernetes-list-map-keys");
    const std::string kind = lt && lt->is_string() ? lt->get<std::string>() : std::string();
    if (lt && kind != "atomic" && kind != "set" && kind != "map") {
      out_.push_back(field_error(at + ".x-kubernetes-list-type", FieldErrorType::NotSupported, lt->dump(),
                                 "supported values: \"atomic\", \"map\", \"set\""));
      return;
    }
    if (lt && type_of(s) != "array")
      out_.push_back(field_error(at + ".x-kubernetes-list-type", FieldErrorType::Invalid, quote_type(kind),
                                 "must only be used if type is array"));
    if (keys && kind != "map")
      out_.push_back(field_error(at + ".x-kubernetes-list-map-keys", FieldErrorType::Forbidden, {},
                                 "must only be used if x-kubernetes-list-type is \"map\""));
    const Json* items = member(s, "items");
    if (kind == "set" && items && items->is_object()) {
      const std::string it = type_of(*items);
      const Json* mt = member(*items, "x-kubernetes-map-type");
      const bool atomic_object = it == "object" && mt && *mt == "atomic";
      const Json* ilt = member(*items, "x-kubernetes-list-type");
      const bool atomic_list = it == "array" && ilt && *ilt == "atomic";
      if (it == "object" && !atomic_object)
        out_.push_back(field_error(at + ".items.x-kubernetes-map-type", FieldErrorType::Invalid, "null",
                                   "must be atomic as item of a list with x-kubernetes-list-type=set"));
      if (it == "array" && !atomic_list)
        out_.push_back(field_error(at + ".items.x-kubernetes-list-type", FieldErrorType::Invalid, "null",
                                   "must be atomic as item of a list with x-kubernetes-list-type=set"));
    }
    if (kind != "map") return;
    if (!keys || !keys->is_array() || keys->empty()) {
      out_.push_back(field_error(at + ".x-kubernetes-list-map-keys", FieldErrorType::Required, {},
                                 "must not be empty if x-kubernetes-list-type is map"));
      return;
    }
    if (!items || !items->is_object()) return;
    if (type_of(*items) != "object") {
      out_.push_back(field_error(at + ".items.type", FieldErrorType::Invalid, quote_type(type_of(*items)),
                                 "must be object if parent array's x-kubernetes-list-type is map"));
      return;
    }
    map_keys(*items, *keys, at);
  }

  // Each key is a scalar property of the items that is required or has a default.
  void map_keys(const Json& items, const Json& keys, const std::string& at) {
    const Json* props = member(items, "properties");
    const Json* required = member(items, "required");
    for (const Json& k : keys) {
      const std::string key = k.is_string() ? k.get<std::string>() : std::string();
      const Json* prop = props && props->is_object() ? member(*props, key) : nullptr;
      if (!prop) {
        out_.push_back(field_error(at + ".x-kubernetes-list-map-keys", FieldErrorType::Invalid, k.dump(),
                                   "entries must all be names of item properties"));
        continue;
      }
      const std::string pt = type_of(*prop);
      const std::string prop_at = at + ".items.properties[" + key + "]";
      if (pt == "object" || pt == "array")
        out_.push_back(field_error(prop_at + ".type", FieldErrorType::Invalid, quote_type(pt),
                                   "must be a scalar type if parent array's x-kubernetes-list-type is map"));
      const bool is_required = required && required->is_array() &&
                               std::find(required->begin(), required->end(), k) != required->end();
      if (!is_required && !member(*prop, "default"))
        out_.push_back(field_error(
            prop_at, FieldErrorType::Required, {},
            "this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property"));
    }
  }

  // Root metadata may only restrict name and generateName.
  void root_metadata(const Json& s, const std::string& at) {
    const Json* props = member(s, "properties");
    const Json* meta = props ? member(*props, "metadata") : nullptr;
    if (!meta || !meta->is_object()) return;
    for (const auto& [key, value] : meta->items()) {
      if (key == "type" && value == "object") continue;
      if (key == "properties" && value.is_object()) {
        const bool only_names = std::all_of(value.items().begin(), value.items().end(), [](const auto& p) {
          return p.key() == "name" || p.key() == "generateName";
        });
        if (only_names) continue;
      }
      out_.push_back(field_error(at + ".properties[metadata]", FieldErrorType::Forbidden, {},
                                 "must not specify anything other than name and generateName, but metadata is "
                                 "implicitly specified"));
      return;
    }
  }

  // allOf/anyOf/oneOf/not carry value validations only. An int-or-string node may state its two
  // types as anyOf [{type: integer}, {type: string}], directly or inside allOf[0].
  void junctors(const Json& s, const std::string& at) {
    const bool int_or_string = flag(s, "x-kubernetes-int-or-string");
    for (const char* j : {"allOf", "anyOf", "oneOf"}) {
      const Json* list = member(s, j);
      if (!list || !list->is_array()) continue;
      const std::string_view name(j);
      for (std::size_t i = 0; i < list->size(); ++i)
        nested((*list)[i], at + "." + j + "[" + std::to_string(i) + "]", int_or_string && name == "anyOf",
               int_or_string && name == "allOf" && i == 0);
    }
    if (const Json* n = member(s, "not")) nested(*n, at + ".not", false, false);
  }

  void nested(const Json& s, const std::string& at, bool type_allowed, bool anyof_types_allowed) {
    if (!s.is_object()) return;
    auto forbid = [&](std::string_view key, const char* why) {
      out_.push_back(field_error(at + "." + std::string(key), FieldErrorType::Forbidden, {}, why));
    };
    if (member(s, "type") && !type_allowed) forbid("type", "must be empty to be structural");
    if (member(s, "additionalProperties")) forbid("additionalProperties", "must be undefined to be structural");
    if (member(s, "default")) forbid("default", "must be undefined to be structural");
    if (flag(s, "nullable")) forbid("nullable", "must be false to be structural");
    if (member(s, "x-kubernetes-preserve-unknown-fields"))
      forbid("x-kubernetes-preserve-unknown-fields", "must be undefined to be structural");
    if (flag(s, "x-kubernetes-embedded-resource"))
      forbid("x-kubernetes-embedded-resource", "must be false to be structural");
    if (flag(s, "x-kubernetes-int-or-string")) forbid("x-kubernetes-int-or-string", "must be false to be structural");
    if (member(s, "x-kubernetes-list-map-keys")) forbid("x-kubernetes-list-map-keys", "must be empty to be structural");
    if (member(s, "x-kubernetes-list-type")) forbid("x-kubernetes-list-type", "must be undefined to be structural");
    if (member(s, "x-kubernetes-map-type")) forbid("x-kubernetes-map-type", "must be undefined to be structural");
    if (member(s, "x-kubernetes-validations")) forbid("x-kubernetes-validations", "must be empty to be structural");
    if (const Json* props = member(s, "properties"); props && props->is_object())
      for (const auto& [name, child] : props->items()) nested(child, at + ".properties[" + name + "]", false, false);
    if (const Json* items = member(s, "items"); items && items->is_object())
      nested(*items, at + ".items", false, false);
    for (const char* j : {"allOf", "anyOf", "oneOf"})
      if (const Json* list = member(s, j); list && list->is_array())
        for (std::size_t i = 0; i < list->size(); ++i)
          nested((*list)[i], at + "." + j + "[" + std::to_string(i) + "]",
                 anyof_types_allowed && std::string_view(j) == "anyOf", false);
    if (const Json* n = member(s, "not")) nested(*n, at + ".not", false, false);
  }

  std::vector<FieldError>& out_;
};

}  // namespace

void check_structural(const Json& schema, const std::string& root_path, std::vector<FieldError>& out) {
  Checker(out).node(schema, root_path, Level::Root);
}

}  // namespace rr::schema
