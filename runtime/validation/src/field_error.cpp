#include "rr/validation/field_error.hpp"

#include <utility>

#include "rr/core/go_quote.hpp"

namespace rr::validation {

std::string FieldError::body() const {
  std::string s(rr::to_string(type));
  // Required, Forbidden and TooLong never show their value (field.Error.ErrorBody).
  const bool shows_value = type != FieldErrorType::Required && type != FieldErrorType::Forbidden &&
                           type != FieldErrorType::TooLong;
  if (shows_value && value) s += ": " + *value;
  if (!detail.empty()) s += ": " + detail;
  return s;
}

std::string FieldError::to_string() const { return field + ": " + body(); }

FieldError invalid(std::string field, std::string_view string_value, std::string detail) {
  return {FieldErrorType::Invalid, std::move(field), go_quote(string_value), std::move(detail)};
}

FieldError invalid_int(std::string field, std::int64_t value, std::string detail) {
  return {FieldErrorType::Invalid, std::move(field), std::to_string(value), std::move(detail)};
}

FieldError invalid_json(std::string field, std::string json_text, std::string detail) {
  return {FieldErrorType::Invalid, std::move(field), std::move(json_text), std::move(detail)};
}

FieldError required(std::string field, std::string detail) {
  return {FieldErrorType::Required, std::move(field), std::nullopt, std::move(detail)};
}

FieldError forbidden(std::string field, std::string detail) {
  return {FieldErrorType::Forbidden, std::move(field), std::nullopt, std::move(detail)};
}

FieldError too_long(std::string field, std::int64_t max_bytes) {
  std::string detail = "may not be more than " + std::to_string(max_bytes) + (max_bytes == 1 ? " byte" : " bytes");
  if (max_bytes < 0) detail = "value is too long";
  return {FieldErrorType::TooLong, std::move(field), std::nullopt, std::move(detail)};
}

FieldError too_many(std::string field, std::int64_t actual, std::int64_t max_items) {
  std::string detail = max_items < 0
                           ? std::string("has too many items")
                           : "must have at most " + std::to_string(max_items) + (max_items == 1 ? " item" : " items");
  std::optional<std::string> shown;
  if (actual >= 0) shown = std::to_string(actual);
  return {FieldErrorType::TooMany, std::move(field), std::move(shown), std::move(detail)};
}

FieldError duplicate(std::string field, std::string_view string_value) {
  return {FieldErrorType::Duplicate, std::move(field), go_quote(string_value), {}};
}

FieldError not_found(std::string field, std::string_view string_value) {
  return {FieldErrorType::NotFound, std::move(field), go_quote(string_value), {}};
}

FieldError not_supported(std::string field, std::string_view string_value, const std::vector<std::string>& supported) {
  std::string detail;
  for (const std::string& v : supported) detail += (detail.empty() ? "supported values: " : ", ") + go_quote(v);
  return {FieldErrorType::NotSupported, std::move(field), go_quote(string_value), std::move(detail)};
}

std::vector<rr::FieldError> to_core(const ErrorList& errors) {
  std::vector<rr::FieldError> out;
  out.reserve(errors.size());
  for (const FieldError& e : errors) out.push_back(e.to_core());
  return out;
}

}  // namespace rr::validation
