#include "rr/yaml/scalars.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>

namespace rr::yaml {

namespace {

// go-yaml v2's resolve table: each text and what it means.
std::optional<Json> in_table(std::string_view s) {
  static constexpr std::array<std::string_view, 11> yes = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                           "True", "TRUE", "on",  "On",  "ON"};
  static constexpr std::array<std::string_view, 11> no = {"n",     "N",     "no",  "No",  "NO", "false",
                                                          "False", "FALSE", "off", "Off", "OFF"};
  static constexpr std::array<std::string_view, 5> null = {"", "~", "null", "Null", "NULL"};
  if (std::find(yes.begin(), yes.end(), s) != yes.end()) return Json(true);
  if (std::find(no.begin(), no.end(), s) != no.end()) return Json(false);
  if (std::find(null.begin(), null.end(), s) != null.end()) return Json(nullptr);
  return std::nullopt;
}

// The float texts of the table: JSON has no number for them.
std::optional<std::string_view> non_finite(std::string_view s) {
  for (std::string_view nan : {".nan", ".NaN", ".NAN"}) {
    if (s == nan) return "NaN";
  }
  for (std::string_view inf : {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}) {
    if (s == inf) return "+Inf";
  }
  for (std::string_view inf : {"-.inf", "-.Inf", "-.INF"}) {
    if (s == inf) return "-Inf";
  }
  return std::nullopt;
}

// strconv.ParseInt(s, 0, 64), then ParseUint: a sign, then 0x / 0o / 0b / a leading 0 / decimal.
// `overflow` tells a well-formed integer too large for 64 bits (go-yaml makes it a big.Int).
std::optional<Json> as_integer(std::string_view s, bool& overflow) {
  overflow = false;
  std::size_t at = 0;
  const bool negative = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) at = 1;
  std::string_view digits = s.substr(at);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && std::string_view("xXoObB").find(digits[1]) != std::string_view::npos) {
    const char prefix = digits[1];
    base = (prefix == 'x' || prefix == 'X') ? 16 : (prefix == 'o' || prefix == 'O') ? 8 : 2;
    digits.remove_prefix(2);
  } else if (digits.size() > 1 && digits[0] == '0') {
    base = 8;
    digits.remove_prefix(1);
  }
  if (digits.empty()) return std::nullopt;
  std::uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  if (end != digits.data() + digits.size()) return std::nullopt;
  if (error == std::errc::result_out_of_range) {
    overflow = true;
    double value = 0;  // big.Int's JSON is its digits; a double is the closest rr::Json holds
    for (char c : digits) value = value * base + (c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    return Json(negative ? -value : value);
  }
  if (error != std::errc()) return std::nullopt;
  constexpr auto max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (negative) {
    if (magnitude > max + 1) {
      overflow = true;
      return Json(-static_cast<double>(magnitude));
    }
    return Json(magnitude == max + 1 ? std::numeric_limits<std::int64_t>::min()
                                     : -static_cast<std::int64_t>(magnitude));
  }
  if (magnitude <= max) return Json(static_cast<std::int64_t>(magnitude));
  return Json(magnitude);
}

// ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$, then strconv.ParseFloat (out of range: no).
std::optional<Json> as_float(const std::string& s) {
  std::size_t i = 0;
  auto digits = [&] {
    const std::size_t from = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - from;
  };
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return std::nullopt;
  } else {
    if (digits() == 0) return std::nullopt;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
    if (digits() == 0) return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  const double value = std::strtod(s.c_str(), nullptr);
  if (!std::isfinite(value)) return std::nullopt;  // 1e999: ParseFloat's range error; it stays text
  return Json(value);
}

// Reads 1 or 2 digits (Go's getnum without `fixed`), or exactly `width` when width is given.
bool digits_at(std::string_view s, std::size_t& i, int& out, std::size_t width = 0) {
  const std::size_t from = i;
  const std::size_t most = width ? width : 2;
  while (i < s.size() && i - from < most && s[i] >= '0' && s[i] <= '9') ++i;
  if (i == from || (width && i - from != width)) return false;
  out = 0;
  for (std::size_t k = from; k < i; ++k) out = out * 10 + (s[k] - '0');
  return true;
}

int days_in(int month, int year) {
  static constexpr std::array<int, 12> days = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[static_cast<std::size_t>(month - 1)];
}

// go-yaml v2's timestamps (time.Parse with "2006-1-2T15:4:5.999999999Z07:00", its lower-case t
// form, "2006-1-2 15:4:5.999999999" in UTC, and "2006-1-2"), as encoding/json writes a time.Time:
// RFC 3339 with nanoseconds, trailing zeros dropped ("2001-12-14T21:59:43.1-05:00").
std::optional<std::string> as_timestamp(std::string_view s) {
  std::size_t i = 0;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!digits_at(s, i, year, 4) || i >= s.size() || s[i++] != '-') return std::nullopt;
  if (!digits_at(s, i, month) || i >= s.size() || s[i++] != '-' || !digits_at(s, i, day)) return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > days_in(month, year)) return std::nullopt;
  std::string fraction, zone = "Z";
  if (i < s.size()) {
    const char separator = s[i++];
    if (separator != 'T' && separator != 't' && separator != ' ') return std::nullopt;
    if (!digits_at(s, i, hour) || i >= s.size() || s[i++] != ':' || !digits_at(s, i, minute) || i >= s.size() ||
        s[i++] != ':' || !digits_at(s, i, second)) {
      return std::nullopt;
    }
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    if (i + 1 < s.size() && (s[i] == '.' || s[i] == ',') && s[i + 1] >= '0' && s[i + 1] <= '9') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') fraction += s[i++];
      fraction.resize(std::min<std::size_t>(fraction.size(), 9));
      while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    }
    if (separator != ' ') {  // the T forms need a zone: Z or +hh:mm
      if (i < s.size() && s[i] == 'Z') {
        ++i;
      } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
        const char sign = s[i++];
        int zh = 0, zm = 0;
        if (!digits_at(s, i, zh, 2) || i >= s.size() || s[i++] != ':' || !digits_at(s, i, zm, 2)) return std::nullopt;
        if (zh != 0 || zm != 0) zone = std::string(1, sign) + std::string(s.substr(i - 5, 5));
      } else {
        return std::nullopt;
      }
    }
  }
  if (i != s.size()) return std::nullopt;
  char text[96];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second);
  return std::string(text) + (fraction.empty() ? "" : "." + fraction) + zone;
}

}  // namespace

std::variant<Json, Unsupported> plain_scalar(std::string_view text) {
  if (auto known = in_table(text)) return *known;
  if (auto inf = non_finite(text)) return Unsupported{"json: unsupported value: " + std::string(*inf)};
  if (text.empty()) return Json(nullptr);
  const char first = text.front();
  if (first == '.') {  // ".5": a float, else text
    if (auto f = as_float(std::string(text))) return *f;
    return Json(std::string(text));
  }
  if (!(first == '-' || first == '+' || (first >= '0' && first <= '9'))) return Json(std::string(text));
  if (auto time = as_timestamp(text)) return Json(*time);  // go-yaml tries a timestamp first
  std::string plain(text);
  std::erase(plain, '_');
  bool overflow = false;
  std::optional<Json> integer = as_integer(plain, overflow);
  if (integer && !overflow) return *integer;
  if (auto f = as_float(plain)) return *f;
  if (integer) return *integer;  // beyond 64 bits and no float: big.Int
  return Json(std::string(text));
}

std::variant<std::string, Unsupported> plain_key(std::string_view text) {
  if (as_timestamp(text)) return Unsupported{"unsupported map key of type: time.Time"};
  auto value = plain_scalar(text);
  if (auto* bad = std::get_if<Unsupported>(&value)) return *bad;
  const Json& v = std::get<Json>(value);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return std::string(v.get<bool>() ? "true" : "false");
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) return std::string(text);  // Go formats a float key with 32-bit precision: keep the text
  return Unsupported{"unsupported map key of type: <nil>"};
}

}  // namespace rr::yaml
