#include "error_text.hpp"

#include "rr/core/go_quote.hpp"

namespace rr::schema {

FieldError field_error(std::string path, FieldErrorType type, std::string_view shown_value, std::string_view detail) {
  std::string m = path.empty() ? std::string() : path + ": ";
  m += to_string(type);
  if (!shown_value.empty()) {
    m += ": ";
    m += shown_value;
  }
  if (!detail.empty()) {
    m += ": ";
    m += detail;
  }
  return FieldError{std::move(path), type, std::move(m)};
}

}  // namespace rr::schema

namespace rr::schema {

std::string go_value(const Json& value) {
  if (value.is_object()) {
    std::string s = "map[string]interface {}{";
    bool first = true;
    for (const auto& [k, v] : value.items()) {
      s += first ? "" : ", ";
      first = false;
      s += go_quote(k) + ":" + go_value(v);
    }
    return s + "}";
  }
  if (value.is_array()) {
    std::string s = "[]interface {}{";
    for (std::size_t i = 0; i < value.size(); ++i) s += (i ? ", " : "") + go_value(value[i]);
    return s + "}";
  }
  if (value.is_null()) return "interface {}(nil)";
  return value.is_string() ? go_quote(value.get_ref<const std::string&>()) : value.dump();
}

}  // namespace rr::schema
