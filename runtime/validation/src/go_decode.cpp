// A built-in kind decoded as Go's encoding/json (the sigs.k8s.io/json fork) decodes it into the
// kind's types, with the OpenAPI definitions standing for the Go types: struct members it does not
// know, the first value of the wrong JSON type (UnmarshalTypeError), and the errors of the types
// that decode themselves (Quantity, IntOrString, Time).
#include <cmath>
#include <cstdint>

#include "go_scalars.hpp"
#include "rr/core/quantity.hpp"
#include "rr/validation/decoding.hpp"

namespace rr::validation {

namespace {

constexpr std::string_view kRefPrefix = "#/components/schemas/";
constexpr std::string_view kQuantity = "io.k8s.apimachinery.pkg.api.resource.Quantity";
constexpr std::string_view kIntOrString = "io.k8s.apimachinery.pkg.util.intstr.IntOrString";
constexpr std::string_view kTime = "io.k8s.apimachinery.pkg.apis.meta.v1.Time";
constexpr std::string_view kMicroTime = "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime";
// resource.ErrFormatWrong
constexpr std::string_view kQuantityFormat =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

// The definition a schema node names ($ref, or allOf: [{$ref}] as the facts write a member).
std::string_view ref_of(const Json& schema) {
  const Json* ref = nullptr;
  if (schema.contains("$ref")) {
    ref = &schema["$ref"];
  } else if (schema.contains("allOf") && schema["allOf"].is_array() && schema["allOf"].size() == 1 &&
             schema["allOf"][0].is_object() && schema["allOf"][0].contains("$ref")) {
    ref = &schema["allOf"][0]["$ref"];
  }
  if (!ref || !ref->is_string()) return {};
  std::string_view text = ref->get_ref<const std::string&>();
  if (text.substr(0, kRefPrefix.size()) != kRefPrefix) return {};
  return text.substr(kRefPrefix.size());
}

// "io.k8s.api.core.v1.Container" -> "v1.Container", as reflect names a Go type.
std::string go_name(std::string_view definition) {
  const std::size_t last = definition.rfind('.');
  if (last == std::string_view::npos) return std::string(definition);
  const std::size_t package = definition.rfind('.', last - 1);
  return std::string(definition.substr(package == std::string_view::npos ? 0 : package + 1));
}

std::string struct_name(std::string_view definition) {
  const std::size_t last = definition.rfind('.');
  return std::string(last == std::string_view::npos ? definition : definition.substr(last + 1));
}

// JSON's kind of a value as UnmarshalTypeError words it.
std::string json_kind(const Json& value) {
  if (value.is_object()) return "object";
  if (value.is_array()) return "array";
  if (value.is_string()) return "string";
  if (value.is_boolean()) return "bool";
  return "number";
}

bool is_integer_in(const Json& value, double low, double high) {
  if (value.is_number_integer()) {
    if (value.is_number_unsigned()) return static_cast<double>(value.get<std::uint64_t>()) <= high;
    const auto n = value.get<std::int64_t>();
    return static_cast<double>(n) >= low && static_cast<double>(n) <= high;
  }
  return false;
}

class Decoder {
 public:
  explicit Decoder(const Json& definitions) : definitions_(definitions) {}

  GoDecoding run(Json& object, std::string_view root) {
    const Json* schema = definition(root);
    if (schema) walk_struct(object, *schema, struct_name(root), "");
    out_.error = fatal_.empty() ? first_type_error_ : fatal_;
    if (!out_.error.empty()) out_.unknown_fields.clear();  // Go reports the failure alone
    return std::move(out_);
  }

 private:
  const Json* definition(std::string_view name) const {
    const auto it = definitions_.find(std::string(name));
    return it == definitions_.end() || !it->is_object() ? nullptr : &*it;
  }

  // The schema a member's node stands for: its definition when it names one.
  const Json& resolved(const Json& schema) const {
    if (const std::string_view ref = ref_of(schema); !ref.empty()) {
      if (const Json* found = definition(ref)) return *found;
    }
    return schema;
  }

  static std::string type_of(const Json& schema) {
    const auto it = schema.find("type");
    return it != schema.end() && it->is_string() ? it->get<std::string>() : std::string();
  }

  static bool is_struct(const Json& schema) {
    return schema.contains("properties") && schema["properties"].is_object();
  }

  // The Go type reflect would name for a member of this schema.
  std::string go_type(const Json& schema) const {
    if (const std::string_view ref = ref_of(schema); !ref.empty()) return go_name(ref);
    const std::string type = type_of(schema);
    const std::string format = schema.value("format", std::string());
    if (type == "array" && schema.contains("items")) return "[]" + go_type(schema["items"]);
    if (type == "object" && schema.contains("additionalProperties") && schema["additionalProperties"].is_object()) {
      return "map[string]" + go_type(schema["additionalProperties"]);
    }
    if (type == "string") return format == "byte" ? "[]uint8" : "string";
    if (type == "integer") return format == "int32" ? "int32" : format == "int64" ? "int64" : "int";
    if (type == "number") return format == "float" ? "float32" : "float64";
    if (type == "boolean") return "bool";
    return "interface {}";
  }

  void type_error(std::string value, const std::string& type) {
    if (!first_type_error_.empty()) return;
    first_type_error_ = "json: cannot unmarshal " + value + " into Go struct field " + context_struct_ + "." +
                        field_stack_ + " of type " + type;
  }

  static std::string joined(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  // A struct: each member it declares, in turn; the others are unknown and pruned.
  void walk_struct(Json& object, const Json& schema, const std::string& name, const std::string& path) {
    const Json& properties = schema["properties"];
    for (auto it = object.begin(); it != object.end() && fatal_.empty();) {
      const std::string key = it.key();
      const auto declared = properties.find(key);
      if (declared == properties.end()) {
        out_.unknown_fields.push_back(joined(path, key));
        it = object.erase(it);
        continue;
      }
      const std::string saved_stack = field_stack_;
      const std::string saved_struct = context_struct_;
      field_stack_ = joined(field_stack_, key);
      context_struct_ = name;
      walk(*it, *declared, joined(path, key));
      field_stack_ = saved_stack;
      context_struct_ = saved_struct;
      ++it;
    }
  }

  void walk(Json& value, const Json& member, const std::string& path) {
    if (value.is_null() || !fatal_.empty()) return;  // null leaves a Go value as it is
    const std::string_view ref = ref_of(member);
    if (ref == kQuantity) return quantity(value);
    if (ref == kIntOrString) return int_or_string(value);
    if (ref == kTime || ref == kMicroTime) return time(value, ref == kMicroTime);
    const Json& schema = resolved(member);
    if (schema.value("x-kubernetes-preserve-unknown-fields", false)) return;
    const std::string type = type_of(schema);
    if (is_struct(schema)) {
      if (!value.is_object()) return type_error(json_kind(value), go_type(member));
      return walk_struct(value, schema, struct_name(ref), path);
    }
    if (type == "object") {
      const auto values = schema.find("additionalProperties");
      if (values == schema.end() || !values->is_object()) return;  // any JSON (RawExtension, JSON, FieldsV1)
      if (!value.is_object()) return type_error(json_kind(value), go_type(member));
      for (auto it = value.begin(); it != value.end() && fatal_.empty(); ++it)
        walk(*it, *values, joined(path, it.key()));
      return;
    }
    if (type == "array") {
      if (!value.is_array()) return type_error(json_kind(value), go_type(member));
      if (!schema.contains("items")) return;
      for (std::size_t i = 0; i < value.size() && fatal_.empty(); ++i) {
        walk(value[i], schema["items"], path + "[" + std::to_string(i) + "]");
      }
      return;
    }
    scalar(value, schema, type, member);
  }

  // A scalar member; its Go type is named only when it is wrong.
  void scalar(const Json& value, const Json& schema, const std::string& type, const Json& member) {
    if (type == "string") {
      if (!value.is_string()) return type_error(json_kind(value), go_type(member));
      // A []byte is base64; its decoding error is saved as a type error is (the first one wins).
      if (schema.value("format", std::string()) == "byte" && first_type_error_.empty()) {
        if (auto error = detail::go_base64_error(value.get_ref<const std::string&>())) first_type_error_ = *error;
      }
    } else if (type == "boolean") {
      if (!value.is_boolean()) type_error(json_kind(value), go_type(member));
    } else if (type == "number") {
      if (!value.is_number()) type_error(json_kind(value), go_type(member));
    } else if (type == "integer") {
      if (!value.is_number()) return type_error(json_kind(value), go_type(member));
      const bool int32 = schema.value("format", std::string()) == "int32";
      const double low = int32 ? -2147483648.0 : -9223372036854775808.0;
      const double high = int32 ? 2147483647.0 : 9223372036854775807.0;
      if (!is_integer_in(value, low, high)) type_error("number " + value.dump(), go_type(member));
    }
  }

  // metav1.Time's and MicroTime's UnmarshalJSON: a string that time.Parse reads with RFC 3339
  // (MicroTime: exactly six fraction digits).
  void time(const Json& value, bool micro) {
    if (!value.is_string()) {
      fatal_ = "json: cannot unmarshal " + json_kind(value) + " into Go value of type string";
      return;
    }
    if (auto error = detail::go_time_parse_error(micro ? detail::kRfc3339Micro : detail::kRfc3339,
                                                 value.get_ref<const std::string&>())) {
      fatal_ = std::move(*error);
    }
  }

  // resource.Quantity's UnmarshalJSON: a string (or bare number) in the quantity grammar.
  void quantity(const Json& value) {
    std::string text;
    if (value.is_string()) {
      text = value.get<std::string>();
      const auto first = text.find_first_not_of(" \t\n\r\v\f");
      const auto last = text.find_last_not_of(" \t\n\r\v\f");
      text = first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
    } else {
      text = value.dump();
    }
    if (text.empty() || !Quantity(text).valid()) fatal_ = std::string(kQuantityFormat);
  }

  // intstr.IntOrString's UnmarshalJSON: a string, or JSON decoded into an int32 on its own.
  void int_or_string(const Json& value) {
    if (value.is_string()) return;
    if (!value.is_number()) {
      fatal_ = "json: cannot unmarshal " + json_kind(value) + " into Go value of type int32";
    } else if (!is_integer_in(value, -2147483648.0, 2147483647.0)) {
      fatal_ = "json: cannot unmarshal number " + value.dump() + " into Go value of type int32";
    }
  }

  const Json& definitions_;
  GoDecoding out_;
  std::string field_stack_;     // Go's errorContext.FieldStack: struct members only, no indexes
  std::string context_struct_;  // the innermost struct of the current member
  std::string first_type_error_;
  std::string fatal_;  // an Unmarshaler's error stops decoding at once
};

}  // namespace

GoDecoding decode_as_go(Json& object, const Json& definitions, std::string_view root) {
  if (!object.is_object() || !definitions.is_object()) return {};
  return Decoder(definitions).run(object, root);
}

std::optional<std::string> kind_definition(const Json& definitions, std::string_view group, std::string_view version,
                                           std::string_view kind) {
  if (!definitions.is_object()) return std::nullopt;
  for (auto it = definitions.begin(); it != definitions.end(); ++it) {
    const auto tags = it->find("x-kubernetes-group-version-kind");
    if (tags == it->end() || !tags->is_array()) continue;
    for (const Json& tag : *tags) {
      if (tag.is_object() && tag.value("group", std::string()) == group &&
          tag.value("version", std::string()) == version && tag.value("kind", std::string()) == kind) {
        return it.key();
      }
    }
  }
  return std::nullopt;
}

std::string cannot_be_handled(std::string_view kind, std::string_view version, std::string_view why) {
  std::string text(kind);
  text += " in version \"";
  text += version;
  text += "\" cannot be handled as a ";
  text += kind;
  text += ": ";
  text += why;
  return text;
}

std::string strict_decoding_error(const std::vector<std::string>& errors) {
  std::string text = "strict decoding error: ";
  for (std::size_t i = 0; i < errors.size(); ++i) text += (i ? ", " : "") + errors[i];
  return text;
}

}  // namespace rr::validation
