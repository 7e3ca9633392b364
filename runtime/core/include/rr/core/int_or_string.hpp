// x-kubernetes-int-or-string: k8s.io/apimachinery/pkg/util/intstr.IntOrString.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace rr {

class IntOrString {
 public:
  IntOrString() : value_(std::int64_t{0}) {}
  IntOrString(std::int64_t value) : value_(value) {}                    // NOLINT: implicit
  IntOrString(int value) : value_(std::int64_t{value}) {}               // NOLINT: implicit
  IntOrString(std::string value) : value_(std::move(value)) {}          // NOLINT: implicit
  IntOrString(const char* value) : value_(std::string(value)) {}        // NOLINT: implicit

  bool is_int() const noexcept { return std::holds_alternative<std::int64_t>(value_); }
  bool is_string() const noexcept { return !is_int(); }
  std::int64_t int_value() const { return std::get<std::int64_t>(value_); }
  const std::string& string_value() const { return std::get<std::string>(value_); }
  // The value as a string ("8080", "50%"), like intstr's String().
  std::string to_string() const;
  // intstr.GetScaledValueFromIntOrPercent: "50%" of total (rounding up or down); ints pass through.
  // Returns nullopt when the string is neither an integer percentage nor an integer.
  std::optional<std::int64_t> scaled_value(std::int64_t total, bool round_up) const;

  bool operator==(const IntOrString&) const = default;

 private:
  std::variant<std::int64_t, std::string> value_;
};

}  // namespace rr
