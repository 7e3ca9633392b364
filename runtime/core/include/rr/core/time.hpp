// format: date-time (metav1.Time) and format: byte, kept as the exact text for a lossless round
// trip, with typed accessors that parse on demand.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace rr {

class Time {
 public:
  using clock = std::chrono::system_clock;
  // The zero time, JSON null (as metav1.Time's zero value; a map of times can hold one).
  Time() = default;
  explicit Time(std::string rfc3339) : text_(std::move(rfc3339)), null_(false) {}
  // Formats as RFC 3339 in UTC with second precision ("2024-05-01T12:00:00Z"), like metav1.Time.
  static Time from(clock::time_point tp);
  // The Time of an RFC 3339 text (as time_point() reads it; the text is kept as given), or
  // nullopt when the text is not one or is outside what `clock` can count.
  static std::optional<Time> parse(std::string_view rfc3339);

  const std::string& str() const noexcept { return text_; }
  // The zero time (JSON null), as opposed to a text, even an empty one.
  bool is_null() const noexcept { return null_; }
  // Parses RFC 3339 (with 'Z' or a numeric offset, optional fractional seconds); nullopt if invalid.
  std::optional<clock::time_point> time_point() const noexcept;
  bool valid() const noexcept { return time_point().has_value(); }
  bool operator==(const Time&) const = default;

 private:
  std::string text_;
  bool null_ = true;
};

class Bytes {
 public:
  Bytes() = default;
  explicit Bytes(std::string base64) : text_(std::move(base64)) {}
  static Bytes encode(std::string_view raw);  // standard base64 with padding

  const std::string& str() const noexcept { return text_; }
  // Decoded bytes; nullopt when the text is not valid standard base64.
  std::optional<std::string> decode() const;
  bool valid() const { return decode().has_value(); }
  bool operator==(const Bytes&) const = default;

 private:
  std::string text_;
};

}  // namespace rr
