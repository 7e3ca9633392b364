#include "load/schema_reader.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <string_view>

namespace rrgen {
namespace {

constexpr std::string_view kForbiddenInCrd[] = {"definitions", "dependencies", "deprecated", "discriminator", "id",
                                                "patternProperties", "readOnly", "writeOnly", "xml", "$ref"};
constexpr std::string_view kTypes[] = {"object", "array", "string", "integer", "number", "boolean"};
constexpr std::string_view kJunctors[] = {"allOf", "anyOf", "oneOf", "not"};
// Keys the reader knows and deliberately ignores (documentation or server-side only).
constexpr std::string_view kIgnored[] = {"title", "example", "externalDocs", "x-kubernetes-group-version-kind",
                                         "x-kubernetes-patch-strategy", "x-kubernetes-patch-merge-key",
                                         "x-kubernetes-unions", "x-kubernetes-selectable-field"};

template <std::size_t N>
bool contains(const std::string_view (&list)[N], std::string_view s) {
  for (auto x : list)
    if (x == s) return true;
  return false;
}

class Reader {
 public:
  Reader(SchemaDialect dialect, Diagnostics& diags) : dialect_(dialect), diags_(diags) {}

  std::unique_ptr<Schema> read(const Node& n, bool needs_type) {
    if (!n.is_mapping()) {
      diags_.error(n.location, "schema-bad-keyword-value", "a schema must be a mapping, found " + describe(n));
      return nullptr;
    }
    auto s = std::make_unique<Schema>();
    s->location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) keyword(*s, n, n.keys[i], n.key_locations[i], n.children[i]);
    check(*s, n, needs_type);
    return s;
  }

 private:
  bool crd() const { return dialect_ == SchemaDialect::Crd; }

  void bad(const Location& at, std::string_view key, std::string_view expected, const Node& v) {
    diags_.error(at, "schema-bad-keyword-value",
                 "'" + std::string(key) + "' must be " + std::string(expected) + ", found " + describe(v));
  }

  std::optional<std::string> string_value(const Node& v, std::string_view key) {
    if (!v.is_scalar() || v.is_null()) {
      bad(v.location, key, "a string", v);
      return std::nullopt;
    }
    return v.text;
  }

  std::optional<bool> bool_value(const Node& v, std::string_view key) {
    if (v.is_scalar() && resolve_scalar(v) == ScalarType::Bool) return to_json_text(v) == "true";
    bad(v.location, key, "a boolean", v);
    return std::nullopt;
  }

  std::optional<double> number_value(const Node& v, std::string_view key) {
    if (v.is_scalar()) {
      const auto t = resolve_scalar(v);
      if (t == ScalarType::Int || t == ScalarType::Float) {
        std::string_view s = v.text;
        if (!s.empty() && s[0] == '+') s.remove_prefix(1);
        double d = 0;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
        if (ec == std::errc() && p == s.data() + s.size() && std::isfinite(d)) return d;
      }
    }
    bad(v.location, key, "a number", v);
    return std::nullopt;
  }

  std::optional<std::int64_t> count_value(const Node& v, std::string_view key) {
    if (v.is_scalar() && resolve_scalar(v) == ScalarType::Int && !v.text.empty() && v.text[0] == '-') {
      diags_.error(v.location, "schema-bad-keyword-value", "'" + std::string(key) + "' must be a non-negative integer, found " + v.text);
      return std::nullopt;
    }
    if (v.is_scalar() && resolve_scalar(v) == ScalarType::Int) {
      std::string_view s = v.text;
      if (!s.empty() && s[0] == '+') s.remove_prefix(1);
      std::int64_t x = 0;
      auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), x);
      if (ec == std::errc() && p == s.data() + s.size() && x >= 0) return x;
    }
    bad(v.location, key, "a non-negative integer", v);
    return std::nullopt;
  }

  std::vector<std::string> string_list(const Node& v, std::string_view key) {
    std::vector<std::string> out;
    if (!v.is_sequence()) {
      bad(v.location, key, "a list of strings", v);
      return out;
    }
    for (const auto& c : v.children) {
      if (auto s = string_value(c, key)) out.push_back(*s);
    }
    return out;
  }

  void keyword(Schema& s, const Node& n, const std::string& key, const Location& at, const Node& v) {
    (void)n;
    if (crd() && contains(kForbiddenInCrd, key)) {
      if (key == "$ref") {
        diags_.error(at, "crd-ref", "'$ref' is not allowed in a CRD schema (structural schemas are self-contained)");
      } else {
        diags_.error(at, "schema-forbidden-keyword", "'" + key + "' is not allowed in a CRD schema");
      }
      return;
    }
    if (key == "type") {
      if (auto t = string_value(v, key)) {
        if (!contains(kTypes, *t)) {
          diags_.error(v.location, "schema-unknown-type", "unknown type '" + *t + "'");
        } else {
          s.type = *t;
        }
      }
    } else if (key == "format") {
      if (auto t = string_value(v, key)) s.format = *t;
    } else if (key == "description") {
      if (v.is_scalar()) s.description = v.text;
    } else if (key == "$ref") {
      if (auto t = string_value(v, key)) {
        constexpr std::string_view prefix = "#/components/schemas/";
        if (t->rfind(prefix, 0) != 0) {
          diags_.error(v.location, "openapi-bad-ref", "unsupported $ref '" + *t + "' (expected '#/components/schemas/NAME')");
        } else {
          s.ref = t->substr(prefix.size());
        }
      }
    } else if (key == "minimum") {
      s.minimum = number_value(v, key);
    } else if (key == "maximum") {
      s.maximum = number_value(v, key);
    } else if (key == "exclusiveMinimum") {
      s.exclusive_minimum = bool_value(v, key).value_or(false);
    } else if (key == "exclusiveMaximum") {
      s.exclusive_maximum = bool_value(v, key).value_or(false);
    } else if (key == "multipleOf") {
      s.multiple_of = number_value(v, key);
      if (s.multiple_of && *s.multiple_of <= 0) {
        diags_.error(v.location, "schema-bad-keyword-value", "'multipleOf' must be greater than 0");
        s.multiple_of.reset();
      }
    } else if (key == "minLength") {
      s.min_length = count_value(v, key);
    } else if (key == "maxLength") {
      s.max_length = count_value(v, key);
    } else if (key == "minItems") {
      s.min_items = count_value(v, key);
    } else if (key == "maxItems") {
      s.max_items = count_value(v, key);
    } else if (key == "minProperties") {
      s.min_properties = count_value(v, key);
    } else if (key == "maxProperties") {
      s.max_properties = count_value(v, key);
    } else if (key == "pattern") {
      s.pattern = string_value(v, key);
    } else if (key == "uniqueItems") {
      s.unique_items = bool_value(v, key).value_or(false);
      if (s.unique_items && crd()) {
        diags_.error(at, "schema-forbidden-keyword", "'uniqueItems: true' is not allowed in a CRD schema; use x-kubernetes-list-type: set");
      }
    } else if (key == "nullable") {
      s.nullable = bool_value(v, key).value_or(false);
    } else if (key == "x-kubernetes-int-or-string") {
      s.int_or_string = bool_value(v, key).value_or(false);
    } else if (key == "x-kubernetes-preserve-unknown-fields") {
      s.preserve_unknown = bool_value(v, key).value_or(false);
    } else if (key == "x-kubernetes-embedded-resource") {
      s.embedded_resource = bool_value(v, key).value_or(false);
    } else if (key == "x-kubernetes-list-type") {
      if (auto t = string_value(v, key)) {
        if (*t != "atomic" && *t != "set" && *t != "map") {
          diags_.error(v.location, "schema-bad-keyword-value", "x-kubernetes-list-type must be atomic, set or map, found '" + *t + "'");
        } else {
          s.list_type = *t;
        }
      }
    } else if (key == "x-kubernetes-list-map-keys") {
      s.list_map_keys = string_list(v, key);
    } else if (key == "x-kubernetes-map-type") {
      if (auto t = string_value(v, key)) s.map_type = *t;
    } else if (key == "x-kubernetes-validations") {
      read_cel(s, v);
    } else if (key == "properties") {
      if (!v.is_mapping()) {
        bad(v.location, key, "a mapping", v);
        return;
      }
      for (std::size_t i = 0; i < v.keys.size(); ++i) {
        auto child = read(v.children[i], true);
        if (child) {
          s.properties.emplace_back(v.keys[i], std::move(child));
          s.property_locations.push_back(v.key_locations[i]);
        }
      }
    } else if (key == "required") {
      s.required = string_list(v, key);
    } else if (key == "items") {
      if (v.is_sequence()) {
        diags_.error(v.location, "schema-bad-keyword-value", "'items' must be a single schema (tuple arrays are not supported)");
        return;
      }
      s.items = read(v, true);
    } else if (key == "additionalProperties") {
      if (v.is_scalar() && resolve_scalar(v) == ScalarType::Bool) {
        const bool allowed = to_json_text(v) == "true";
        if (!allowed && crd()) {
          diags_.error(at, "schema-forbidden-keyword", "'additionalProperties: false' is not allowed in a CRD schema");
        }
        s.additional_properties_any = allowed;
      } else {
        s.additional_properties = read(v, true);
      }
    } else if (key == "enum") {
      if (!v.is_sequence()) {
        bad(v.location, key, "a list", v);
        return;
      }
      for (const auto& c : v.children) s.enum_json.push_back(to_json_text(c));
    } else if (key == "default") {
      s.default_json = to_json_text(v);
      // The API server's documents give a Go struct's non-pointer members their zero value as
      // `default` ("", 0, false, {}): what Go decodes an absent member to, not a default the
      // server applies (declared defaults such as `protocol: TCP` are never zero). Kept, they
      // would make required members optional and fill absent members on apply_defaults().
      if (!crd() && is_go_zero_value(*s.default_json)) s.default_json.reset();
    } else if (key == "allOf" && !crd() && v.is_sequence() && v.children.size() == 1 && v.children[0].is_mapping() &&
               v.children[0].find("$ref")) {
      // OpenAPI documents wrap a $ref in allOf to attach a description or default to it.
      if (auto t = string_value(*v.children[0].find("$ref"), "$ref"); t && t->rfind("#/components/schemas/", 0) == 0)
        s.ref = t->substr(std::string_view("#/components/schemas/").size());
    } else if (contains(kJunctors, key)) {
      s.junctors_json.push_back("{\"" + key + "\":" + to_json_text(v) + "}");
      if (crd()) check_junctor_tree(v, key == "not");
    } else if (key.rfind("x-rrgen-", 0) == 0 && !crd()) {
      rrgen_extension(s, key, at, v);
    } else if (contains(kIgnored, key) || key.rfind("x-", 0) == 0) {
      // documentation, or server-side metadata that does not shape the C++ type
    } else if (crd()) {
      diags_.warning(at, "schema-unknown-keyword", "unknown schema keyword '" + key + "' ignored");
    }
  }

  // x-rrgen-* (docs/runtime-schemas.md): checked here for spelling; sema checks where they may
  // appear. CRDs never carry them (they describe the runtime's own shapes), so there they stay
  // ignored like any other x- keyword.
  void rrgen_extension(Schema& s, const std::string& key, const Location& at, const Node& v) {
    RrgenExtensions& x = s.rrgen;
    if (!x.present) x.location = at;
    x.present = true;
    auto is_identifier = [](std::string_view t) {
      if (t.empty() || std::isdigit(static_cast<unsigned char>(t[0]))) return false;
      for (const char c : t)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
      return true;
    };
    // `qualified`: "ns::Name" (at least one namespace); otherwise a plain identifier.
    auto identifier = [&](bool qualified) -> std::string {
      auto t = string_value(v, key);
      if (!t) return {};
      std::string_view rest = *t;
      bool ok = !qualified || rest.find("::") != std::string_view::npos;
      for (std::size_t sep; ok && (sep = rest.find("::")) != std::string_view::npos; rest.remove_prefix(sep + 2))
        ok = qualified && is_identifier(rest.substr(0, sep));
      ok = ok && is_identifier(rest);
      if (!ok) bad(v.location, key, qualified ? "a qualified C++ name (ns::Name)" : "a C++ identifier", v);
      return ok ? *t : std::string();
    };
    if (key == "x-rrgen-cpp-type") x.cpp_type = identifier(true);
    else if (key == "x-rrgen-cpp-name") x.cpp_name = identifier(false);
    else if (key == "x-rrgen-unknown-fields") x.unknown_fields = identifier(false);
    else if (key == "x-rrgen-go-json") x.go_json = bool_value(v, key).value_or(false);
    else if (key == "x-rrgen-go-pointer") x.go_pointer = bool_value(v, key).value_or(false);
    else if (key == "x-rrgen-json-text") x.json_text = bool_value(v, key).value_or(false);
    else if (key == "x-rrgen-protobuf") x.protobuf = protobuf_facts(v, key);
    else diags_.error(at, "rrgen-extension", "unknown extension '" + key + "' (docs/runtime-schemas.md lists them)");
  }

  // {number, type, repeated?, map_key?, items?, embedded?}; see ProtobufFacts.
  std::optional<ProtobufFacts> protobuf_facts(const Node& v, const std::string& key) {
    if (!v.is_mapping()) {
      bad(v.location, key, "a mapping", v);
      return std::nullopt;
    }
    auto field_number = [&](const Node& n) {
      const std::optional<double> d = number_value(n, key);
      if (d && *d >= 1 && *d <= 536870911 && *d == static_cast<int>(*d)) return static_cast<int>(*d);
      bad(n.location, key, "a field number", n);
      return 0;
    };
    ProtobufFacts f;
    for (std::size_t i = 0; i < v.keys.size(); ++i) {
      const std::string& k = v.keys[i];
      const Node& c = v.children[i];
      if (k == "number") f.number = field_number(c);
      else if (k == "type") f.type = string_value(c, key).value_or("");
      else if (k == "repeated") f.repeated = bool_value(c, key).value_or(false);
      else if (k == "map_key") f.map_key = string_value(c, key).value_or("");
      else if (k == "items") f.items = string_value(c, key).value_or("");
      else if (k == "empty") f.empty = bool_value(c, key).value_or(false);
      else if (k == "embedded" && c.is_sequence())
        for (const Node& n : c.children) f.embedded.push_back(field_number(n));
      else diags_.error(v.key_locations[i], "rrgen-extension", "unknown key '" + k + "' in x-rrgen-protobuf");
    }
    if (f.number == 0 || f.type.empty()) bad(v.location, key, "a mapping with number and type", v);
    return f;
  }

  void read_cel(Schema& s, const Node& v) {
    if (!v.is_sequence()) {
      bad(v.location, "x-kubernetes-validations", "a list of rules", v);
      return;
    }
    for (const auto& r : v.children) {
      if (!r.is_mapping()) {
        bad(r.location, "x-kubernetes-validations", "a list of rules", r);
        continue;
      }
      CelRule rule;
      for (std::size_t i = 0; i < r.keys.size(); ++i) {
        const Node& x = r.children[i];
        const std::string& k = r.keys[i];
        if (k == "optionalOldSelf") {
          rule.optional_old_self = bool_value(x, k).value_or(false);
          continue;
        }
        if (!x.is_scalar()) continue;
        if (k == "rule") rule.rule = x.text;
        else if (k == "message") rule.message = x.text;
        else if (k == "messageExpression") rule.message_expression = x.text;
        else if (k == "reason") rule.reason = x.text;
        else if (k == "fieldPath") rule.field_path = x.text;
      }
      if (rule.rule.empty()) {
        diags_.error(r.location, "schema-bad-keyword-value", "x-kubernetes-validations entry without 'rule'");
        continue;
      }
      s.validations.push_back(std::move(rule));
    }
  }

  // Structural rule 3: junctors may constrain but not declare types, defaults or descriptions.
  void check_junctor_tree(const Node& v, bool single) {
    std::vector<const Node*> work;
    if (single) work.push_back(&v);
    else if (v.is_sequence()) for (const auto& c : v.children) work.push_back(&c);
    else bad(v.location, "allOf/anyOf/oneOf", "a list of schemas", v);
    while (!work.empty()) {
      const Node* n = work.back();
      work.pop_back();
      if (!n->is_mapping()) continue;
      for (std::size_t i = 0; i < n->keys.size(); ++i) {
        const std::string& k = n->keys[i];
        if (k == "type" || k == "default" || k == "description" || k == "nullable" || k == "additionalProperties") {
          // The int-or-string idiom `anyOf: [{type: integer}, {type: string}]` is the documented exception.
          if (k == "type") continue;
          diags_.error(n->key_locations[i], "schema-not-structural",
                       "'" + k + "' must not be set inside allOf/anyOf/oneOf/not");
        }
        const Node& c = n->children[i];
        if (k == "properties" && c.is_mapping()) for (const auto& p : c.children) work.push_back(&p);
        else if (k == "items" || k == "not") work.push_back(&c);
        else if ((k == "allOf" || k == "anyOf" || k == "oneOf") && c.is_sequence())
          for (const auto& p : c.children) work.push_back(&p);
      }
    }
  }

  void check(Schema& s, const Node& n, bool needs_type) {
    // A node whose type was already reported ($ref, an unknown type) gets no second error.
    const bool exempt = s.int_or_string || s.preserve_unknown || n.find("$ref") || n.find("type");
    if (crd()) {
      if (needs_type && s.type.empty() && !exempt) {
        diags_.error(n.location, "schema-missing-type",
                     "schema has no 'type' (structural schemas need one unless x-kubernetes-int-or-string or "
                     "x-kubernetes-preserve-unknown-fields is set)");
      }
      if (!s.properties.empty() && s.additional_properties) {
        diags_.error(n.location, "schema-not-structural", "'properties' and 'additionalProperties' are mutually exclusive");
      }
    }
    if (s.type == "array" && !s.items) {
      diags_.error(n.location, "schema-missing-items", "array schema has no 'items'");
    }
    if (s.list_type == "map") {
      if (s.list_map_keys.empty()) {
        diags_.error(n.location, "schema-list-map-keys", "x-kubernetes-list-type: map needs x-kubernetes-list-map-keys");
      } else if (s.items) {
        for (const auto& k : s.list_map_keys) {
          const Schema* p = s.items->property(k);
          if (!p && s.items->ref.empty()) {
            diags_.error(n.location, "schema-list-map-keys", "list map key '" + k + "' is not a property of the items");
          }
        }
      }
    }
    if (!s.list_map_keys.empty() && s.list_type != "map") {
      diags_.error(n.location, "schema-list-map-keys", "x-kubernetes-list-map-keys requires x-kubernetes-list-type: map");
    }
  }

  SchemaDialect dialect_;
  Diagnostics& diags_;
};

}  // namespace

bool is_go_zero_value(const std::string& json) {
  return json == "\"\"" || json == "0" || json == "false" || json == "{}";
}

std::unique_ptr<Schema> read_schema(const Node& node, SchemaDialect dialect, Diagnostics& diags) {
  return Reader(dialect, diags).read(node, true);
}

}  // namespace rrgen
