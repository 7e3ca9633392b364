// resource.Quantity ("500m", "1Gi", "2.5", 3): the text is kept byte-for-byte (lossless round trip);
// the numeric value is parsed on demand with the API machinery's grammar.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rr {

class Quantity {
 public:
  Quantity() = default;
  Quantity(std::string text) : text_(std::move(text)) {}   // NOLINT: implicit, like resource.MustParse
  Quantity(const char* text) : text_(text) {}              // NOLINT: implicit
  // A quantity written as a JSON number (allowed by int-or-string schemas) re-encodes as a number.
  static Quantity from_number(std::string number_text) { Quantity q(std::move(number_text)); q.number_ = true; return q; }

  const std::string& str() const noexcept { return text_; }
  bool was_number() const noexcept { return number_; }
  // True when text matches the Kubernetes quantity grammar (sign, digits, optional fraction,
  // suffix among Ki Mi Gi Ti Pi Ei, n u m "" k M G T P E, or e/E exponent).
  bool valid() const noexcept;
  // Value in thousandths (like Quantity.MilliValue()), rounded up; nullopt if invalid or out of range.
  std::optional<std::int64_t> milli_value() const noexcept;
  // Value rounded up to an integer (Quantity.Value()); nullopt if invalid or out of range.
  std::optional<std::int64_t> value() const noexcept;
  std::optional<double> as_double() const noexcept;

  // Textual identity: "1Gi" and "1024Mi" differ here; compare milli_value() for numeric equality.
  bool operator==(const Quantity&) const = default;

 private:
  std::string text_;
  bool number_ = false;
};

}  // namespace rr
