#include "rr/testing/json_value.hpp"

#include "rr/core/json.hpp"

namespace rr::testing {

JsonValue::JsonValue() : value_(std::make_unique<Json>()) {}
JsonValue::JsonValue(Json value) : value_(std::make_unique<Json>(std::move(value))) {}
JsonValue::JsonValue(const JsonValue& other) : value_(std::make_unique<Json>(*other.value_)) {}
// A moved-from value holds nothing: it may be assigned to or destroyed, as the header says.
JsonValue::JsonValue(JsonValue&& other) noexcept = default;
JsonValue& JsonValue::operator=(const JsonValue& other) {
  if (this == &other) return *this;
  if (value_) {
    *value_ = *other.value_;
  } else {
    value_ = std::make_unique<Json>(*other.value_);
  }
  return *this;
}
JsonValue& JsonValue::operator=(JsonValue&& other) noexcept {
  value_.swap(other.value_);
  return *this;
}
JsonValue::~JsonValue() = default;

}  // namespace rr::testing
