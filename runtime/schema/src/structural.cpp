// The structural-schema rules of apiextensions-apiserver (pkg/apiserver/schema: validation.go's
// invariants and complete.go), with their paths and wording. Upstream sorts these by message.
#include <algorithm>

#include "error_text.hpp"
#include "schema_json.hpp"
#include "structural.hpp"

namespace rr::schema {
namespace {

enum class Level { Root, Item, Field };

// anyOf: [{type: integer}, {type: string}], exactly: how int-or-string may name its types.
bool int_or_string_any_of(const Json* any_of) {
  static const Json kPattern = Json::array({{{"type", "integer"}}, {{"type", "string"}}});
  return any_of && *any_of == kPattern;
}

class Invariants {
 public:
  explicit Invariants(std::vector<FieldError>& out) : out_(out) {}

  void node(const Json& s, const std::string& at, Level level) {
    if (!s.is_object()) return;
    const std::string type = string_member(s, "type");
    const Json* items = member(s, "items");
    if (type == "array" && !items) required(at + ".items", "must be specified");
    if (items && items->is_object()) node(*items, at + ".items", Level::Item);
    const Json* props = member(s, "properties");
    if (props && props->is_object())
      for (const auto& [name, child] : props->items()) node(child, at + ".properties[" + name + "]", Level::Field);
    const Json* additional = member(s, "additionalProperties");
    if (additional) {
      if (level == Level::Root) forbidden(at + ".additionalProperties", "must not be used at the root");
      if (additional->is_object()) node(*additional, at + ".additionalProperties", Level::Field);
    }
    const bool int_or_string = flag(s, "x-kubernetes-int-or-string");
    const bool preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
    const bool embedded = flag(s, "x-kubernetes-embedded-resource");
    if (int_or_string && preserve)
      invalid(at + ".x-kubernetes-preserve-unknown-fields", "true",
              "must be false if x-kubernetes-int-or-string is true");
    if (int_or_string && embedded)
      invalid(at + ".x-kubernetes-embedded-resource", "true", "must be false if x-kubernetes-int-or-string is true");
    const Json* all_of = member(s, "allOf");
    const bool skip_any_of = int_or_string_any_of(member(s, "anyOf"));
    const bool skip_first_all_of_any_of = all_of && all_of->is_array() && !all_of->empty() &&
                                          int_or_string_any_of(member((*all_of)[0], "anyOf"));
    junctors(s, at, skip_any_of, skip_first_all_of_any_of);
    types(at, level, type, embedded, int_or_string, preserve, additional != nullptr);
    if (level == Level::Root || embedded) type_meta(s, at, level);
    if (embedded && !preserve && (!props || props->empty()))
      required(
          at + ".properties",
          "must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields");
  }

 private:
  void required(std::string at, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Required, {}, why));
  }
  void forbidden(std::string at, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Forbidden, {}, why));
  }
  void invalid(std::string at, std::string_view shown, std::string_view why) {
    out_.push_back(field_error(std::move(at), FieldErrorType::Invalid, shown, why));
  }

  void types(const std::string& at, Level level, const std::string& type, bool embedded, bool int_or_string,
             bool preserve, bool has_additional) {
    if (embedded && type != "object") {
      if (type.empty()) required(at + ".type", "must be object if x-kubernetes-embedded-resource is true");
      else invalid(at + ".type", go_quoted(type), "must be object if x-kubernetes-embedded-resource is true");
    } else if (type.empty() && !int_or_string && !preserve) {
      required(at + ".type", level == Level::Root   ? "must not be empty at the root"
                             : level == Level::Item ? "must not be empty for specified array items"
                                                    : "must not be empty for specified object fields");
    }
    if (embedded && has_additional)
      forbidden(at + ".additionalProperties", "must not be used if x-kubernetes-embedded-resource is set");
    if (level == Level::Root && !type.empty() && type != "object")
      invalid(at + ".type", go_quoted(type), "must be object at the root");
  }

  // apiVersion and kind are strings, metadata an object; at the root metadata may only restrict
  // name and generateName.
  void type_meta(const Json& s, const std::string& at, Level level) {
    const Json* props = member(s, "properties");
    if (!props || !props->is_object()) return;
    for (const char* key : {"kind", "apiVersion"})
      if (const Json* p = member(*props, key); p && string_member(*p, "type") != "string")
        invalid(at + ".properties[" + key + "].type", go_quoted(string_member(*p, "type")), "must be string");
    const Json* meta = member(*props, "metadata");
    if (!meta) return;
    const std::string meta_at = at + ".properties[metadata]";
    if (string_member(*meta, "type") != "object")
      invalid(meta_at + ".type", go_quoted(string_member(*meta, "type")), "must be object");
    if (level != Level::Root || !meta->is_object()) return;
    bool only_names = true;
    for (const auto& [key, value] : meta->items()) {
      if (key == "type" || key == "default") continue;
      if (key == "properties" && value.is_object() && !value.empty() &&
          std::all_of(value.items().begin(), value.items().end(),
                      [](const auto& p) { return p.key() == "name" || p.key() == "generateName"; }))
        continue;
      only_names = false;
    }
    if (!only_names)
      forbidden(meta_at,
                "must not specify anything other than name and generateName, but metadata is implicitly specified");
  }

  void junctors(const Json& s, const std::string& at, bool skip_any_of, bool skip_first_all_of_any_of) {
    if (const Json* list = member(s, "anyOf"); list && list->is_array() && !skip_any_of)
      for (std::size_t i = 0; i < list->size(); ++i)
        nested((*list)[i], at + ".anyOf[" + std::to_string(i) + "]", false);
    if (const Json* list = member(s, "allOf"); list && list->is_array())
      for (std::size_t i = 0; i < list->size(); ++i)
        nested((*list)[i], at + ".allOf[" + std::to_string(i) + "]", skip_first_all_of_any_of && i == 0);
    if (const Json* list = member(s, "oneOf"); list && list->is_array())
      for (std::size_t i = 0; i < list->size(); ++i)
        nested((*list)[i], at + ".oneOf[" + std::to_string(i) + "]", false);
    if (const Json* n = member(s, "not")) nested(*n, at + ".not", false);
  }

  // A junctor's member: value validations only.
  void nested(const Json& v, const std::string& at, bool skip_any_of) {
    if (!v.is_object()) return;
    junctors(v, at, skip_any_of, false);
    if (const Json* items = member(v, "items"); items && items->is_object()) nested(*items, at + ".items", false);
    const Json* props = member(v, "properties");
    if (props && props->is_object())
      for (const auto& [name, child] : props->items()) nested(child, at + ".properties[" + name + "]", false);
    if (member(v, "type")) forbidden(at + ".type", "must be empty to be structural");
    if (member(v, "additionalProperties"))
      forbidden(at + ".additionalProperties", "must be undefined to be structural");
    if (member(v, "default")) forbidden(at + ".default", "must be undefined to be structural");
    if (!string_member(v, "title").empty()) forbidden(at + ".title", "must be empty to be structural");
    if (!string_member(v, "description").empty()) forbidden(at + ".description", "must be empty to be structural");
    if (flag(v, "nullable")) forbidden(at + ".nullable", "must be false to be structural");
    if (flag(v, "x-kubernetes-preserve-unknown-fields"))
      forbidden(at + ".x-kubernetes-preserve-unknown-fields", "must be false to be structural");
    if (flag(v, "x-kubernetes-embedded-resource"))
      forbidden(at + ".x-kubernetes-embedded-resource", "must be false to be structural");
    if (flag(v, "x-kubernetes-int-or-string"))
      forbidden(at + ".x-kubernetes-int-or-string", "must be false to be structural");
    if (const Json* k = member(v, "x-kubernetes-list-map-keys"); k && k->is_array() && !k->empty())
      forbidden(at + ".x-kubernetes-list-map-keys", "must be empty to be structural");
    if (member(v, "x-kubernetes-list-type"))
      forbidden(at + ".x-kubernetes-list-type", "must be undefined to be structural");
    if (member(v, "x-kubernetes-map-type"))
      forbidden(at + ".x-kubernetes-map-type", "must be undefined to be structural");
    if (const Json* x = member(v, "x-kubernetes-validations"); x && x->is_array() && !x->empty())
      forbidden(at + ".x-kubernetes-validations", "must be empty to be structural");
    if (props && member(*props, "metadata"))
      forbidden(at + ".properties[metadata]", "must not be specified in a nested context");
  }

  std::vector<FieldError>& out_;
};

// complete.go: what the root's junctors name (properties, items) must exist in the structural part.
class Completeness {
 public:
  explicit Completeness(std::vector<FieldError>& out) : out_(out) {}

  void value_validation(const Json& v, const Json* s, const std::string& s_at, const std::string& v_at) {
    if (!v.is_object()) return;
    if (const Json* n = member(v, "not")) nested(*n, s, s_at, v_at + ".not");
    for (const char* j : {"allOf", "anyOf", "oneOf"})
      if (const Json* list = member(v, j); list && list->is_array())
        for (std::size_t i = 0; i < list->size(); ++i)
          nested((*list)[i], s, s_at, v_at + "." + j + "[" + std::to_string(i) + "]");
  }

 private:
  void nested(const Json& v, const Json* s, const std::string& s_at, const std::string& v_at) {
    if (!v.is_object()) return;
    if (!s) {
      out_.push_back(field_error(s_at, FieldErrorType::Required, {}, "because it is defined in " + v_at));
      return;
    }
    value_validation(v, s, s_at, v_at);
    if (const Json* items = member(v, "items"); items && items->is_object())
      nested(*items, member(*s, "items"), s_at + ".items", v_at + ".items");
    if (const Json* props = member(v, "properties"); props && props->is_object()) {
      const Json* s_props = member(*s, "properties");
      for (const auto& [name, child] : props->items()) {
        const std::string key = ".properties[" + name + "]";
        nested(child, s_props ? member(*s_props, name) : nullptr, s_at + key, v_at + key);
      }
    }
  }

  std::vector<FieldError>& out_;
};

}  // namespace

std::vector<FieldError> structural_errors(const Json& schema, const std::string& root_path) {
  std::vector<FieldError> out;
  Invariants(out).node(schema, root_path, Level::Root);
  Completeness(out).value_validation(schema, &schema, root_path, root_path);
  std::sort(out.begin(), out.end(), [](const FieldError& a, const FieldError& b) { return a.message < b.message; });
  return out;
}

}  // namespace rr::schema
