// The CEL declaration of a schema node (decl_type.hpp).
#include "decl_type.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include "schema_members.hpp"

namespace rr::schema::detail {

namespace {

using rr::cel::CelType;

// JSON lengths the API server assumes for its size estimates (apiserver/pkg/cel/types.go).
constexpr std::int64_t kMinStringSize = 2;    // ""
constexpr std::int64_t kMinBoolSize = 4;      // true
constexpr std::int64_t kMinNumberSize = 1;    // 0
constexpr std::int64_t kMinDurationSize = 3;  // "0"
constexpr std::int64_t kMaxDurationSize = 32;
constexpr std::int64_t kDateSize = 12;  // "2006-01-02"
constexpr std::int64_t kMinDatetimeSize = 21;
constexpr std::int64_t kMaxDatetimeSize = 32;

bool is_reserved(std::string_view name) {
  // CEL's reserved words, which a property must be escaped from (cel-spec's grammar).
  static const std::set<std::string_view, std::less<>> kWords = {
      "true", "false",  "null", "in",   "as",      "break",     "const",  "continue", "else", "for",  "function",
      "if",   "import", "let",  "loop", "package", "namespace", "return", "var",      "void", "while"};
  return kWords.contains(name);
}

CelType bounded(CelType t, std::int64_t n) { return t.with_max_size(static_cast<std::uint64_t>(n)); }

// The longest string a format allows (estimateMaxStringLengthPerRequest).
std::int64_t max_string_length(std::string_view format) {
  if (format == "duration") return kMaxDurationSize;
  if (format == "date") return kDateSize;
  if (format == "date-time") return kMaxDatetimeSize;
  return kMaxRequestSizeBytes - 2;
}

std::optional<DeclType> string_type(const rr::Json& schema) {
  const std::string format = schema_text(schema, "format");
  const auto max_length = int_member(schema, "maxLength");
  if (format == "byte") {
    return DeclType{bounded(CelType::bytes_type(), max_length.value_or(max_string_length(format))), kMinStringSize};
  }
  if (format == "duration") return DeclType{bounded(CelType::duration(), kMaxDurationSize), kMinDurationSize};
  if (format == "date") return DeclType{bounded(CelType::timestamp(), kDateSize), kDateSize};
  if (format == "date-time") return DeclType{bounded(CelType::timestamp(), kMaxDatetimeSize), kMinDatetimeSize};
  // maxLength counts code points; the bound is in bytes, up to 4 a code point (as the API server).
  constexpr std::int64_t kMaxCodePoints = std::numeric_limits<std::int64_t>::max() / 4;
  const std::int64_t bound = max_length ? std::min(*max_length, kMaxCodePoints) * 4 : max_string_length(format);
  return DeclType{bounded(CelType::string_type(), bound), kMinStringSize};
}

std::optional<DeclType> object_type(const rr::Json& schema, const std::string& type_name) {
  if (auto extra = schema.find("additionalProperties"); extra != schema.end() && extra->is_object()) {
    auto value = decl_type(*extra, schema_flag(*extra, "x-kubernetes-embedded-resource"), type_name + ".@value");
    if (!value) return std::nullopt;
    // Each entry is at least "":v, with a comma: 6 bytes beside the value.
    const std::int64_t bound =
        int_member(schema, "maxProperties").value_or((kMaxRequestSizeBytes - 2) / (value->min_serialized_size + 6));
    // The keys are apiserver's plain StringType, whose MaxElements is 0: the API server's size
    // estimator sizes a key at 0 (so `self.all(k, k.matches(...))` over a bounded map stays cheap).
    return DeclType{bounded(CelType::map(CelType::string_type().with_max_size(0), value->type), bound), 2};
  }
  std::set<std::string> required;
  if (auto it = schema.find("required"); it != schema.end() && it->is_array()) {
    for (const auto& r : *it)
      if (r.is_string()) required.insert(r.get<std::string>());
  }
  std::map<std::string, CelType> fields;
  std::int64_t min_size = 2;  // {}
  if (auto props = schema.find("properties"); props != schema.end() && props->is_object()) {
    for (const auto& [name, prop] : props->items()) {
      const auto escaped = escape_property(name);
      auto field = decl_type(prop, schema_flag(prop, "x-kubernetes-embedded-resource"),
                             type_name + "." + escaped.value_or(name));
      if (!field) continue;
      if (escaped) fields.emplace(*escaped, field->type);
      // A required property without a default is in every value: "name":v plus quotes, colon, comma.
      if (required.contains(name) && !prop.contains("default")) {
        min_size += static_cast<std::int64_t>(name.size()) + field->min_serialized_size + 4;
      }
    }
  }
  const auto max_properties = int_member(schema, "maxProperties");
  CelType t = CelType::object(type_name, std::move(fields));
  // apiserver's object DeclType has no MaxElements (0) unless maxProperties sets one: its size
  // estimator sizes an object at 0, so comparing two (`x == y`) costs what scalars cost.
  t = bounded(std::move(t), max_properties.value_or(0));
  return DeclType{std::move(t), min_size};
}

}  // namespace

std::optional<std::string> escape_property(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return std::nullopt;
  if (is_reserved(name)) return "__" + std::string(name) + "__";
  std::string out;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '_' && i + 1 < name.size() && name[i + 1] == '_') {
      out += "__underscores__";
      ++i;
    } else if (c == '.') {
      out += "__dot__";
    } else if (c == '-') {
      out += "__dash__";
    } else if (c == '/') {
      out += "__slash__";
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
      out += c;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

rr::Json with_type_and_object_meta(const rr::Json& schema) {
  const auto has_type = [](const rr::Json& node, const rr::Json::json_pointer& at, const char* type) {
    return node.contains(at) && node[at].is_object() && schema_text(node[at], "type") == type;
  };
  using P = rr::Json::json_pointer;
  if (has_type(schema, P("/properties/kind"), "string") && has_type(schema, P("/properties/apiVersion"), "string") &&
      has_type(schema, P("/properties/metadata"), "object") &&
      has_type(schema, P("/properties/metadata/properties/name"), "string") &&
      has_type(schema, P("/properties/metadata/properties/generateName"), "string")) {
    return schema;  // already declares them: the schema's own metadata stays whole
  }
  rr::Json out = schema.is_object() ? schema : rr::Json::object();
  const rr::Json string_schema = {{"type", "string"}};
  out["type"] = "object";
  out["properties"]["kind"] = string_schema;
  out["properties"]["apiVersion"] = string_schema;
  out["properties"]["metadata"] = {{"type", "object"},
                                   {"properties", {{"name", string_schema}, {"generateName", string_schema}}}};
  return out;
}

std::optional<DeclType> decl_type(const rr::Json& schema, bool resource_root, const std::string& type_name) {
  if (!schema.is_object()) return std::nullopt;
  if (schema_flag(schema, "x-kubernetes-int-or-string")) {
    // int or string: dyn, checked at run time; as long as a string the request can hold.
    return DeclType{bounded(CelType::dyn(), kMaxRequestSizeBytes - 2), 1};
  }
  if (resource_root) return decl_type(with_type_and_object_meta(schema), false, type_name);
  const std::string type = schema_text(schema, "type");
  if (type == "array") {
    const auto items = schema.find("items");
    if (items == schema.end()) return std::nullopt;
    auto elem = decl_type(*items, schema_flag(*items, "x-kubernetes-embedded-resource"), type_name + ".@idx");
    if (!elem) return std::nullopt;
    const std::int64_t bound =
        int_member(schema, "maxItems").value_or((kMaxRequestSizeBytes - 2) / (elem->min_serialized_size + 1));
    return DeclType{bounded(CelType::list(elem->type), bound), 2};
  }
  if (type == "object") return object_type(schema, type_name);
  if (type == "string") return string_type(schema);
  if (type == "boolean") return DeclType{CelType::bool_type(), kMinBoolSize};
  if (type == "number") return DeclType{CelType::double_type(), kMinNumberSize};
  if (type == "integer") return DeclType{CelType::int_type(), kMinNumberSize};
  return std::nullopt;
}

}  // namespace rr::schema::detail
