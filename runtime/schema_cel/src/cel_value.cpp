// JSON values as CEL sees them under a schema (cel_rules.hpp: cel_value_of), as the API server's
// UnstructuredToVal converts them: numbers by the schema's type, string formats to bytes,
// durations and timestamps, objects with their properties selectable by escaped names.
#include <string>
#include <utility>
#include <vector>

#include "rr/cel/json.hpp"
#include "rr/cel/program.hpp"
#include "rr/schema_cel/cel_rules.hpp"
#include "schema_members.hpp"

namespace rr::schema {

namespace {

using rr::cel::Value;

// A string format converted by rr::cel's own functions (so parsing matches what rules may call):
// compiled once, evaluated with `s` bound to the string.
Value convert_format(const std::string& format, const std::string& text) {
  static const auto program = [](const char* source) {
    rr::cel::CompileOptions options;
    options.declarations.emplace("s", rr::cel::CelType::string_type());
    return rr::cel::compile(source, options).program;
  };
  static const auto bytes = program("base64.decode(s)");
  static const auto duration = program("duration(s)");
  static const auto date = program("timestamp(s + 'T00:00:00Z')");
  static const auto date_time = program("timestamp(s)");
  const std::optional<rr::cel::Program>* p = format == "byte"        ? &bytes
                                             : format == "duration"  ? &duration
                                             : format == "date"      ? &date
                                             : format == "date-time" ? &date_time
                                                                     : nullptr;
  if (p == nullptr || !p->has_value()) return Value(text);
  rr::cel::Activation vars;
  vars.set("s", Value(text));
  return (*p)->evaluate(vars);
}

const rr::Json* member(const rr::Json& schema, const char* name) {
  const auto it = schema.find(name);
  return it != schema.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace

Value cel_value_of(const rr::Json& value, const rr::Json& node_schema) {
  if (!node_schema.is_object() || value.is_null()) return rr::cel::from_json(value);
  if (detail::schema_flag(node_schema, "x-kubernetes-int-or-string")) return rr::cel::from_json(value);
  const std::string type = detail::schema_text(node_schema, "type");
  if (value.is_object()) {
    const rr::Json* properties = member(node_schema, "properties");
    const rr::Json* additional = member(node_schema, "additionalProperties");
    std::vector<std::pair<Value, Value>> entries;
    entries.reserve(value.size());
    for (const auto& [key, item] : value.items()) {
      const rr::Json* item_schema = additional;
      if (properties != nullptr) {
        const auto it = properties->find(key);
        item_schema = it != properties->end() ? &*it : nullptr;
      }
      entries.emplace_back(Value(key),
                           item_schema != nullptr ? cel_value_of(item, *item_schema) : rr::cel::from_json(item));
    }
    // A map (additionalProperties) is selected by its keys; an object also by escaped property names.
    return additional != nullptr && properties == nullptr ? Value::map(std::move(entries))
                                                          : Value::object(std::move(entries));
  }
  if (value.is_array()) {
    const rr::Json* items = member(node_schema, "items");
    std::vector<Value> out;
    out.reserve(value.size());
    for (const auto& item : value)
      out.push_back(items != nullptr ? cel_value_of(item, *items) : rr::cel::from_json(item));
    return Value::list(std::move(out));
  }
  if (type == "number" && value.is_number()) return Value(value.get<double>());
  if (type == "integer" && value.is_number_float()) return Value(static_cast<std::int64_t>(value.get<double>()));
  if (type == "string" && value.is_string())
    return convert_format(detail::schema_text(node_schema, "format"), value.get<std::string>());
  return rr::cel::from_json(value);
}

}  // namespace rr::schema
