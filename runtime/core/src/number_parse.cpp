#include "number_parse.hpp"

#include <charconv>
#include <cstddef>
#include <limits>
#include <string>
#include <system_error>

namespace rr::detail {
namespace {

inline bool is_decimal_digit(char c) noexcept { return c >= '0' && c <= '9'; }

struct Parts {
  bool negative = false;
  std::string_view int_digits;
  std::string_view frac_digits;
  long exponent = 0;  // saturated at +-(token size + 40): beyond that the outcome no longer changes
};

Parts split(std::string_view t) noexcept {
  Parts p;
  std::size_t i = 0;
  if (i < t.size() && t[i] == '-') { p.negative = true; ++i; }
  const std::size_t ib = i;
  while (i < t.size() && is_decimal_digit(t[i])) ++i;
  p.int_digits = t.substr(ib, i - ib);
  if (i < t.size() && t[i] == '.') {
    const std::size_t fb = ++i;
    while (i < t.size() && is_decimal_digit(t[i])) ++i;
    p.frac_digits = t.substr(fb, i - fb);
  }
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    bool neg = false;
    if (i < t.size() && (t[i] == '+' || t[i] == '-')) neg = t[i++] == '-';
    const long cap = static_cast<long>(t.size()) + 40;
    long e = 0;
    for (; i < t.size() && is_decimal_digit(t[i]); ++i) {
      e = e * 10 + (t[i] - '0');
      if (e > cap) e = cap;
    }
    p.exponent = neg ? -e : e;
  }
  return p;
}

IntParse from_digits(bool negative, std::string_view digits, std::int64_t& out) noexcept {
  if (digits.size() > 19) return IntParse::OutOfRange;
  std::uint64_t acc = 0;
  for (const char c : digits) acc = acc * 10 + static_cast<std::uint64_t>(c - '0');
  constexpr std::uint64_t kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (acc > kMax + 1) return IntParse::OutOfRange;
    out = static_cast<std::int64_t>(0 - acc);  // modular in C++20: 2^63 maps to INT64_MIN
  } else {
    if (acc > kMax) return IntParse::OutOfRange;
    out = static_cast<std::int64_t>(acc);
  }
  return IntParse::Ok;
}

}  // namespace

IntParse parse_json_integer(std::string_view token, std::int64_t& out) noexcept {
  if (token.find_first_of(".eE") == std::string_view::npos) {
    const bool negative = !token.empty() && token[0] == '-';
    return from_digits(negative, token.substr(negative ? 1 : 0), out);
  }
  const Parts p = split(token);
  std::string digits;
  digits.reserve(p.int_digits.size() + p.frac_digits.size());
  digits.append(p.int_digits);
  digits.append(p.frac_digits);
  long e = p.exponent - static_cast<long>(p.frac_digits.size());
  const auto first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    out = 0;
    return IntParse::Ok;
  }
  digits.erase(0, first);
  while (digits.back() == '0') {
    digits.pop_back();
    ++e;
  }
  if (e < 0) return IntParse::NotInteger;
  if (static_cast<long>(digits.size()) + e > 19) return IntParse::OutOfRange;
  digits.append(static_cast<std::size_t>(e), '0');
  return from_digits(p.negative, digits, out);
}

bool parse_json_double(std::string_view token, double& out) noexcept {
  const auto r = std::from_chars(token.data(), token.data() + token.size(), out);
  if (r.ec == std::errc{}) return true;
  if (r.ec != std::errc::result_out_of_range) return false;
  // Out of range: underflow rounds to zero (as Go and strtod do); overflow is an error.
  const Parts p = split(token);
  long magnitude = 0;
  const auto nz = p.int_digits.find_first_not_of('0');
  if (nz != std::string_view::npos) {
    magnitude = static_cast<long>(p.int_digits.size() - nz) - 1 + p.exponent;
  } else {
    const auto fz = p.frac_digits.find_first_not_of('0');
    if (fz == std::string_view::npos) {
      out = p.negative ? -0.0 : 0.0;
      return true;
    }
    magnitude = -static_cast<long>(fz) - 1 + p.exponent;
  }
  if (magnitude < 0) {
    out = p.negative ? -0.0 : 0.0;
    return true;
  }
  return false;
}

}  // namespace rr::detail
