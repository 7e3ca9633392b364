#include "go_scalars.hpp"

#include <array>

namespace rr::validation::detail {

namespace {

bool is_digit(std::string_view s, std::size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

// time's quote(): bytes outside printable ASCII as \xNN, '"' and '\' escaped.
std::string quote(std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80 || c < ' ') {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 0xF];
    } else {
      if (c == '"' || c == '\\') out += '\\';
      out += ch;
    }
  }
  return out + "\"";
}

// getnum(): one or two digits; `fixed` requires two.
bool get_number(std::string_view& value, bool fixed, int& n) {
  if (!is_digit(value, 0)) return false;
  if (!is_digit(value, 1)) {
    if (fixed) return false;
    n = value[0] - '0';
    value.remove_prefix(1);
    return true;
  }
  n = (value[0] - '0') * 10 + (value[1] - '0');
  value.remove_prefix(2);
  return true;
}

bool is_leap(int year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int days_in(int month, int year) {
  static constexpr std::array<int, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap(year) ? 29 : days[static_cast<std::size_t>(month - 1)];
}

// One parse of an RFC 3339 layout, element by element as time.parse walks it: a literal
// separator, then a numeric element (or the zone), each failure named as Go names it.
class TimeParser {
 public:
  TimeParser(std::string_view layout, std::string_view value) : layout_(layout), whole_(value), value_(value) {}

  std::optional<std::string> run() {
    const bool micro = layout_ == kRfc3339Micro;
    int year = 0, month = 0, day = 0, n = 0;
    if (auto e = four_digit_year(year)) return e;
    if (auto e = literal("-")) return e;
    if (auto e = number("01", true, month, 1, 12, "month")) return e;
    if (auto e = literal("-")) return e;
    if (auto e = number("02", true, day, 0, 31, "")) return e;
    if (auto e = literal("T")) return e;
    if (auto e = number("15", false, n, 0, 23, "hour")) return e;
    if (auto e = literal(":")) return e;
    if (auto e = number("04", true, n, 0, 59, "minute")) return e;
    if (auto e = literal(":")) return e;
    if (auto e = number("05", true, n, 0, 59, "second")) return e;
    if (micro) {
      if (auto e = micro_fraction()) return e;
    } else {
      skip_fraction();
    }
    if (auto e = zone()) return e;
    if (!value_.empty()) return message(": extra text: " + quote(value_));
    if (day < 1 || day > days_in(month, year)) return message(": day out of range");
    return std::nullopt;
  }

 private:
  std::string cannot_parse(std::string_view value_elem, std::string_view layout_elem) const {
    return "parsing time " + quote(whole_) + " as " + quote(layout_) + ": cannot parse " + quote(value_elem) + " as " +
           quote(layout_elem);
  }
  std::string message(std::string_view text) const { return "parsing time " + quote(whole_) + std::string(text); }

  std::optional<std::string> literal(std::string_view prefix) {
    if (value_.substr(0, prefix.size()) != prefix) return cannot_parse(value_, prefix);
    value_.remove_prefix(prefix.size());
    return std::nullopt;
  }

  std::optional<std::string> four_digit_year(int& year) {
    if (value_.size() < 4 || !is_digit(value_, 0)) return cannot_parse(value_, "2006");
    const std::string_view digits = value_.substr(0, 4);
    year = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return cannot_parse(value_, "2006");
      year = year * 10 + (c - '0');
    }
    value_.remove_prefix(4);
    return std::nullopt;
  }

  // A numeric element; `range_name` empty: its range is checked after the whole value (the day).
  std::optional<std::string> number(std::string_view element, bool fixed, int& n, int low, int high,
                                    std::string_view range_name) {
    const std::string_view hold = value_;
    if (!get_number(value_, fixed, n)) return cannot_parse(hold, element);
    if (!range_name.empty() && (n < low || n > high)) return message(": " + std::string(range_name) + " out of range");
    return std::nullopt;
  }

  // A fraction the layout does not have is accepted after the seconds (digits after ',' or '.').
  void skip_fraction() {
    if (value_.size() >= 2 && (value_[0] == '.' || value_[0] == ',') && is_digit(value_, 1)) {
      std::size_t n = 2;
      while (is_digit(value_, n)) ++n;
      value_.remove_prefix(n);
    }
  }

  // RFC3339Micro's ".000000": '.' or ',' and six bytes that atoi reads (an optional sign, then
  // digits); a negative fraction is out of range.
  std::optional<std::string> micro_fraction() {
    const std::string_view hold = value_;
    if (value_.size() < 7 || (value_[0] != '.' && value_[0] != ',')) return cannot_parse(hold, ".000000");
    std::string_view digits = value_.substr(1, 6);
    const bool negative = digits[0] == '-';
    if (digits[0] == '+' || negative) digits.remove_prefix(1);
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (!is_digit(digits, i)) return cannot_parse(hold, ".000000");
    }
    value_.remove_prefix(7);
    if (negative && digits.find_first_not_of('0') != std::string_view::npos) {
      return message(": fractional second out of range");
    }
    return std::nullopt;
  }

  // "Z07:00": "Z", or a sign and hh:mm (offsets up to 24 hours and 60 minutes are taken).
  std::optional<std::string> zone() {
    const std::string_view hold = value_;
    if (!value_.empty() && value_[0] == 'Z') {
      value_.remove_prefix(1);
      return std::nullopt;
    }
    if (value_.size() < 6 || value_[3] != ':') return cannot_parse(hold, "Z07:00");
    std::string_view hour = value_.substr(1, 2), minute = value_.substr(4, 2);
    int hh = 0, mm = 0;
    bool ok = get_number(hour, true, hh);
    if (ok) ok = get_number(minute, true, mm);
    // Offsets up to 24 hours and 60 minutes are taken; the last range checked names the error.
    std::string_view range;
    if (hh > 24) range = "time zone offset hour";
    if (mm > 60) range = "time zone offset minute";
    const char sign = value_[0];
    value_.remove_prefix(6);
    if (!range.empty()) return message(": " + std::string(range) + " out of range");
    if (!ok || (sign != '+' && sign != '-')) return cannot_parse(hold, "Z07:00");
    return std::nullopt;
  }

  std::string_view layout_, whole_, value_;
};

int base64_value(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::string corrupt(std::size_t at) { return "illegal base64 data at input byte " + std::to_string(at); }

bool is_newline(char c) { return c == '\n' || c == '\r'; }

// One quantum of encoding/base64's decodeQuantum (StdEncoding: padded, not strict): advances `si`
// past it; an error names the byte Go names.
std::optional<std::string> quantum(std::string_view src, std::size_t& si, bool& done) {
  for (std::size_t j = 0; j < 4; ++j) {
    if (si == src.size()) {
      if (j == 0) {
        done = true;
        return std::nullopt;
      }
      return corrupt(si - j);  // a partial quantum (StdEncoding wants padding)
    }
    const char in = src[si++];
    if (base64_value(static_cast<unsigned char>(in)) >= 0) continue;
    if (is_newline(in)) {
      --j;  // newlines are skipped; j wraps back before the loop's ++j
      continue;
    }
    if (in != '=' || j < 2) return corrupt(si - 1);
    if (j == 2) {  // "==" expected: the first '=' is consumed
      while (si < src.size() && is_newline(src[si])) ++si;
      if (si == src.size()) return corrupt(src.size());
      if (src[si] != '=') return corrupt(si - 1);
      ++si;
    }
    while (si < src.size() && is_newline(src[si])) ++si;
    if (si < src.size()) return corrupt(si);  // trailing garbage after the padding
    done = true;
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> go_time_parse_error(std::string_view layout, std::string_view value) {
  return TimeParser(layout, value).run();
}

std::optional<std::string> go_base64_error(std::string_view value) {
  std::size_t si = 0;
  bool done = false;
  while (!done && si < value.size()) {
    if (auto error = quantum(value, si, done)) return error;
  }
  return std::nullopt;
}

}  // namespace rr::validation::detail
