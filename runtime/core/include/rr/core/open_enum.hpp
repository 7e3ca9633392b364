// A string enum that keeps values it does not know. Servers add enum values over time; a client
// built against the older schema must still decode, re-encode byte-for-byte and report (not throw)
// the unknown value, which validate() flags.
#pragma once
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace rr {

// E is a generated `enum class`; the generator also emits, in E's namespace,
//   std::span<const std::string_view> enum_values(E);   // JSON spelling of each enumerator, in order
template <class E>
class OpenEnum {
 public:
  OpenEnum() = default;
  OpenEnum(E value) : text_(enum_values(E{})[static_cast<std::size_t>(value)]) {}  // NOLINT: implicit
  static OpenEnum from_string(std::string_view text) { OpenEnum e; e.text_ = text; return e; }

  // The value as written on the wire (always available, also for unknown values).
  const std::string& str() const noexcept { return text_; }
  // The enumerator, or nullopt for a value this schema does not list.
  std::optional<E> value() const noexcept {
    const auto names = enum_values(E{});
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == text_) return static_cast<E>(i);
    return std::nullopt;
  }
  bool is_known() const noexcept { return value().has_value(); }
  bool operator==(const OpenEnum&) const = default;
  bool operator==(E other) const noexcept { return value() == other; }

 private:
  std::string text_;
};

}  // namespace rr
