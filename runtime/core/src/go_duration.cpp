// Go's time.ParseDuration and Duration.String, on std::chrono::nanoseconds.
#include "rr/core/go_duration.hpp"

#include <cstdint>
#include <limits>
#include <stdexcept>

namespace rr {
namespace {

constexpr std::uint64_t kMaxNanos = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

[[noreturn]] void invalid(std::string_view text) {
  throw std::invalid_argument("time: invalid duration " + quoted(text));
}

// Nanoseconds per unit, 0 when the unit is unknown.
std::uint64_t unit_nanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1000;  // us, µs (micro sign), μs (mu)
  if (unit == "ms") return 1000 * 1000;
  if (unit == "s") return 1000 * 1000 * 1000;
  if (unit == "m") return 60ULL * 1000 * 1000 * 1000;
  if (unit == "h") return 3600ULL * 1000 * 1000 * 1000;
  return 0;
}

bool is_duration_digit(char c) { return c >= '0' && c <= '9'; }

// "<int>.<frac>" of value/unit with trailing zeros of the fraction dropped (Go's fmtFrac/fmtInt).
std::string fixed(std::uint64_t value, std::uint64_t unit) {
  std::string out = std::to_string(value / unit);
  std::uint64_t frac = value % unit;
  if (frac == 0) return out;
  std::string digits;
  for (std::uint64_t scale = unit / 10; scale > 0; scale /= 10) {
    digits += static_cast<char>('0' + (frac / scale) % 10);
  }
  while (!digits.empty() && digits.back() == '0') digits.pop_back();
  return out + "." + digits;
}

}  // namespace

std::chrono::nanoseconds parse_go_duration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) invalid(text);

  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!is_duration_digit(s.front()) && s.front() != '.') invalid(text);
    // The number: whole part, then an optional fraction.
    std::uint64_t whole = 0;
    std::size_t i = 0;
    bool whole_digits = false;
    for (; i < s.size() && is_duration_digit(s[i]); ++i) {
      whole_digits = true;
      const std::uint64_t digit = static_cast<std::uint64_t>(s[i] - '0');
      if (whole > (kMaxNanos - digit) / 10) invalid(text);
      whole = whole * 10 + digit;
    }
    std::uint64_t frac = 0;
    std::uint64_t frac_scale = 1;
    bool frac_digits = false;
    if (i < s.size() && s[i] == '.') {
      for (++i; i < s.size() && is_duration_digit(s[i]); ++i) {
        frac_digits = true;
        if (frac_scale > kMaxNanos / 10) continue;  // digits past 1e18 cannot change the nanoseconds
        frac = frac * 10 + static_cast<std::uint64_t>(s[i] - '0');
        frac_scale *= 10;
      }
    }
    if (!whole_digits && !frac_digits) invalid(text);
    // The unit: everything up to the next number.
    std::size_t u = i;
    while (u < s.size() && s[u] != '.' && !is_duration_digit(s[u])) ++u;
    const std::string_view unit = s.substr(i, u - i);
    if (unit.empty()) throw std::invalid_argument("time: missing unit in duration " + quoted(text));
    const std::uint64_t per_unit = unit_nanos(unit);
    if (per_unit == 0) {
      throw std::invalid_argument("time: unknown unit " + quoted(unit) + " in duration " + quoted(text));
    }
    if (whole > kMaxNanos / per_unit) invalid(text);
    std::uint64_t nanos = whole * per_unit;
    if (frac > 0) {
      // frac/frac_scale < 1, so frac * per_unit / frac_scale < per_unit; long double keeps it exact enough.
      nanos += static_cast<std::uint64_t>(static_cast<long double>(frac) * static_cast<long double>(per_unit) /
                                          static_cast<long double>(frac_scale));
      if (nanos > kMaxNanos) invalid(text);
    }
    if (total > kMaxNanos - nanos) invalid(text);
    total += nanos;
    s.remove_prefix(u);
  }
  const auto signed_total = static_cast<std::int64_t>(total);
  return std::chrono::nanoseconds(negative ? -signed_total : signed_total);
}

std::string format_go_duration(std::chrono::nanoseconds d) {
  const std::int64_t count = d.count();
  if (count == 0) return "0s";
  const bool negative = count < 0;
  // Magnitude as unsigned, so that the minimum int64 does not overflow.
  const std::uint64_t n = negative ? 0 - static_cast<std::uint64_t>(count) : static_cast<std::uint64_t>(count);
  std::string out;
  constexpr std::uint64_t second = 1000ULL * 1000 * 1000;
  if (n < second) {
    if (n < 1000) {
      out = std::to_string(n) + "ns";
    } else if (n < 1000 * 1000) {
      out = fixed(n, 1000) + "\xC2\xB5s";  // Go prints the micro sign
    } else {
      out = fixed(n, 1000 * 1000) + "ms";
    }
  } else {
    const std::uint64_t hours = n / (3600 * second);
    const std::uint64_t minutes = n / (60 * second) % 60;
    const std::string seconds = fixed(n % (60 * second), second) + "s";
    if (hours > 0) {
      out = std::to_string(hours) + "h" + std::to_string(minutes) + "m" + seconds;
    } else if (minutes > 0) {
      out = std::to_string(minutes) + "m" + seconds;
    } else {
      out = seconds;
    }
  }
  return negative ? "-" + out : out;
}

}  // namespace rr
