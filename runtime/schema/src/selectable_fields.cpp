#include "rr/schema/selectable_fields.hpp"

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

#include "error_text.hpp"
#include "rr/core/go_quote.hpp"

namespace rr::schema {

namespace {

constexpr std::size_t kMaxSelectableFields = 8;

struct Resolved {
  std::string path;    // as field.Path prints it: spec.color, spec.labels[key]
  std::string root;    // its first member
  const Json* schema;  // the node it names
};

// cel.ValidFieldPath without array notation: "." then a member, for each step; a member of an
// object with properties must be one of them, of a map (additionalProperties) is a key.
Resolved resolve(const std::string& json_path, const Json& schema) {
  Resolved out{"", "", &schema};
  std::size_t i = 0;
  while (i < json_path.size()) {
    const char c = json_path[i];
    if (c == '[') throw std::invalid_argument("array notation is not allowed");
    if (c != '.') {
      const std::size_t end = json_path.find_first_of(".[]", i);
      throw std::invalid_argument("expected [ or . but got: " + json_path.substr(i, end - i));
    }
    ++i;
    if (i >= json_path.size()) throw std::invalid_argument("unexpected end of JSON path");
    std::size_t end = json_path.find_first_of(".[]", i);
    if (end == i) end = i + 1;  // a delimiter right after '.' is the step's token, as the scanner splits it
    const std::string token = json_path.substr(i, end == std::string::npos ? std::string::npos : end - i);
    i = end == std::string::npos ? json_path.size() : end;
    const Json& node = *out.schema;
    const Json* properties = node.is_object() && node.contains("properties") ? &node["properties"] : nullptr;
    const Json* additional = node.is_object() && node.contains("additionalProperties") &&
                                     node["additionalProperties"].is_object()
                                 ? &node["additionalProperties"]
                                 : nullptr;
    if (properties && properties->is_object()) {
      if (!properties->contains(token)) throw std::invalid_argument("does not refer to a valid field");
      out.path += (out.path.empty() ? "" : ".") + token;
      out.schema = &(*properties)[token];
    } else if (additional) {
      out.path += "[" + token + "]";
      out.schema = additional;
    } else {
      throw std::invalid_argument("does not refer to a valid field");
    }
    if (out.root.empty()) out.root = token;
  }
  return out;
}

bool allowed_type(const Json& schema) {
  if (!schema.is_object() || !schema.contains("type") || !schema["type"].is_string()) return false;
  const std::string& type = schema["type"].get_ref<const std::string&>();
  return type == "string" || type == "boolean" || type == "integer";
}

}  // namespace

std::vector<FieldError> check_selectable_fields(const Json& openapi_v3_schema, const Json& selectable_fields,
                                                const std::string& path) {
  std::vector<FieldError> errors;
  if (!selectable_fields.is_array()) return errors;
  std::set<std::string> unique;
  for (std::size_t i = 0; i < selectable_fields.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "].jsonPath";
    const Json& field = selectable_fields[i];
    const std::string json_path = field.is_object() ? field.value("jsonPath", std::string()) : std::string();
    if (json_path.empty()) {
      errors.push_back(field_error(at, FieldErrorType::Required, "", ""));
      continue;
    }
    const std::string shown = go_quote(json_path);
    Resolved found;
    try {
      found = resolve(json_path, openapi_v3_schema);
    } catch (const std::invalid_argument& e) {
      errors.push_back(field_error(at, FieldErrorType::Invalid, shown, std::string("is an invalid path: ") + e.what()));
      continue;
    }
    if (found.root == "metadata") {
      errors.push_back(field_error(at, FieldErrorType::Invalid, shown, "must not point to fields in metadata"));
    }
    if (!allowed_type(*found.schema)) {
      errors.push_back(field_error(at, FieldErrorType::Invalid, shown,
                                   "must point to a field of type string, boolean or integer. Enum string fields "
                                   "and strings with formats are allowed."));
    }
    if (!unique.insert(found.path).second) errors.push_back(field_error(at, FieldErrorType::Duplicate, shown, ""));
  }
  if (unique.size() > kMaxSelectableFields) {
    errors.push_back(field_error(path, FieldErrorType::TooMany, std::to_string(unique.size()),
                                 "must have at most " + std::to_string(kMaxSelectableFields) + " items"));
  }
  return errors;
}

std::vector<std::string> selectable_field_names(const Json& selectable_fields) {
  std::vector<std::string> names;
  if (!selectable_fields.is_array()) return names;
  for (const Json& field : selectable_fields) {
    if (!field.is_object() || !field.contains("jsonPath") || !field["jsonPath"].is_string()) continue;
    std::string name = field["jsonPath"].get<std::string>();
    if (name.starts_with('.')) name.erase(0, 1);
    names.push_back(std::move(name));
  }
  return names;
}

}  // namespace rr::schema
