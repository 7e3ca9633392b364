#include "text_util.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace rr::detail {

std::size_t utf8_sequence_length(const unsigned char* p, std::size_t available) noexcept {
  const unsigned c = p[0];
  auto cont = [&](std::size_t i) { return (p[i] & 0xC0u) == 0x80u; };
  if (c < 0xC2) return 0;  // continuation byte or overlong 2-byte lead
  if (c < 0xE0) return available >= 2 && cont(1) ? 2 : 0;
  if (c < 0xF0) {
    if (available < 3 || !cont(1) || !cont(2)) return 0;
    if (c == 0xE0 && p[1] < 0xA0) return 0;   // overlong
    if (c == 0xED && p[1] >= 0xA0) return 0;  // UTF-16 surrogate
    return 3;
  }
  if (c < 0xF5) {
    if (available < 4 || !cont(1) || !cont(2) || !cont(3)) return 0;
    if (c == 0xF0 && p[1] < 0x90) return 0;   // overlong
    if (c == 0xF4 && p[1] >= 0x90) return 0;  // past U+10FFFF
    return 4;
  }
  return 0;
}

void append_utf8(std::string& out, std::uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::size_t count_code_points(std::string_view s) noexcept {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    if (p[i] < 0x80) { ++i; continue; }
    const std::size_t len = utf8_sequence_length(p + i, s.size() - i);
    i += len == 0 ? 1 : len;
  }
  return n;
}

namespace {
constexpr char kHex[] = "0123456789abcdef";

constexpr std::array<bool, 256> make_escape_table() {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[static_cast<std::size_t>(c)] = true;
  t['"'] = true;
  t['\\'] = true;
  return t;
}
constexpr auto kNeedsEscape = make_escape_table();
}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  std::size_t run = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (!kNeedsEscape[c]) continue;
    out.append(s.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      default: {
        const char esc[6] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 0xF]};
        out.append(esc, 6);
      }
    }
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

void append_pointer_segment(std::string& out, std::string_view segment) {
  for (const char c : segment) {
    if (c == '~') out.append("~0");
    else if (c == '/') out.append("~1");
    else out.push_back(c);
  }
}

std::string go_quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (std::size_t i = 0; i < s.size();) {
    const unsigned c = p[i];
    if (c >= 0x80) {
      const std::size_t len = utf8_sequence_length(p + i, s.size() - i);
      if (len == 0) {
        out.append("\\x");
        out.push_back(kHex[c >> 4]);
        out.push_back(kHex[c & 0xF]);
        ++i;
      } else {
        out.append(s.substr(i, len));
        i += len;
      }
      continue;
    }
    switch (c) {
      case '"': out.append("\\\""); break;
      case '\\': out.append("\\\\"); break;
      case '\a': out.append("\\a"); break;
      case '\b': out.append("\\b"); break;
      case '\f': out.append("\\f"); break;
      case '\n': out.append("\\n"); break;
      case '\r': out.append("\\r"); break;
      case '\t': out.append("\\t"); break;
      case '\v': out.append("\\v"); break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out.append("\\x");
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xF]);
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
    ++i;
  }
  out.push_back('"');
  return out;
}

std::string go_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[64];
  if (v == std::trunc(v) && std::fabs(v) < 1e21) {
    // Integral: print every digit, no exponent, no ".0" (Go's %v of an int64 or whole float64).
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 0);
    return std::string(buf, r.ptr);
  }
  // Shortest round-trip digits, then laid out like Go's %v: %e form when the exponent is < -4 or
  // >= 21, otherwise plain decimal.
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string sci(buf, r.ptr);
  const auto e = sci.find('e');
  std::string digits;
  bool negative = false;
  for (std::size_t i = 0; i < e; ++i) {
    if (sci[i] == '-') negative = true;
    else if (sci[i] != '.') digits.push_back(sci[i]);
  }
  int exp = 0;
  std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+' ? 1 : 0), sci.data() + sci.size(), exp);
  std::string s = negative ? "-" : "";
  if (exp < -4 || exp >= 21) {
    s += digits[0];
    if (digits.size() > 1) { s += '.'; s.append(digits, 1, std::string::npos); }
    s += 'e';
    s += exp < 0 ? '-' : '+';
    const int a = exp < 0 ? -exp : exp;
    if (a < 10) s += '0';
    s += std::to_string(a);
  } else if (exp < 0) {
    s += "0.";
    s.append(static_cast<std::size_t>(-exp - 1), '0');
    s += digits;
  } else {
    const auto point = static_cast<std::size_t>(exp) + 1;
    if (digits.size() <= point) {
      s += digits;
      s.append(point - digits.size(), '0');
    } else {
      s.append(digits, 0, point);
      s += '.';
      s.append(digits, point, std::string::npos);
    }
  }
  return s;
}

}  // namespace rr::detail
