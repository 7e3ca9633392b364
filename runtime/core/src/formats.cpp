#include "formats.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <limits>
#include <string>
#include <system_error>

#include "rfc3339.hpp"

namespace rr::detail {
namespace {

inline bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
inline bool is_hex(char c) noexcept { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
inline bool is_alnum(char c) noexcept { return is_alpha(c) || is_digit(c); }
inline int hex_value(char c) noexcept {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

// ^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$
bool is_base64(std::string_view s) noexcept {
  if (s.size() % 4 != 0) return false;
  auto b64 = [](char c) { return is_alnum(c) || c == '+' || c == '/'; };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (b64(s[i])) continue;
    if (s[i] != '=') return false;
    // '=' only in the last group, at position 3, or at 2 and 3
    const std::size_t tail = s.size() - i;
    if (tail == 1) return true;
    if (tail == 2 && s[i + 1] == '=') return true;
    return false;
  }
  return true;
}

bool is_integer(std::string_view s, std::int64_t lo, std::int64_t hi) noexcept {
  std::int64_t v = 0;
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc{} && r.ptr == s.data() + s.size() && !s.empty() && v >= lo && v <= hi;
}

// ^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$ (case-insensitive)
bool is_uuid(std::string_view s) noexcept {
  if (s.size() != 36) return false;
  for (std::size_t i = 0; i < 36; ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !is_hex(s[i])) return false;
  }
  return true;
}

// Go's time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+ or "0".
bool is_go_duration(std::string_view s) noexcept {
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  if (s == "0") return true;
  if (s.empty()) return false;
  while (!s.empty()) {
    std::size_t i = 0;
    bool any = false;
    while (i < s.size() && is_digit(s[i])) { ++i; any = true; }
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && is_digit(s[i])) { ++i; any = true; }
    }
    if (!any) return false;
    s.remove_prefix(i);
    static constexpr std::string_view kUnits[] = {"ns", "us", "\xC2\xB5s", "\xCE\xBCs", "ms", "s", "m", "h"};
    std::size_t best = 0;
    for (const auto u : kUnits)
      if (s.substr(0, u.size()) == u && u.size() > best) best = u.size();
    // the unit runs to the next digit or '.'
    std::size_t unit_len = 0;
    while (unit_len < s.size() && !is_digit(s[unit_len]) && s[unit_len] != '.') ++unit_len;
    if (best == 0 || best != unit_len) return false;
    s.remove_prefix(unit_len);
  }
  return true;
}

// kube-openapi's strfmt.ParseDuration: time.ParseDuration, else any "<digits><spaces><unit>" group
// with a known unit (ns, us, ms, s, m, h, d, w and long spellings).
bool is_duration(std::string_view s) {
  if (is_go_duration(s)) return true;
  static constexpr std::string_view kUnits[] = {"ns", "nano", "us", "\xC2\xB5s", "micro", "ms", "milli", "s",
                                                "sec", "m", "min", "h", "hr", "hour", "d", "day", "w", "wk",
                                                "week"};
  auto known = [&](const std::string& u) {
    for (const auto k : kUnits)
      if (k == u) return true;
    return false;
  };
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (!is_digit(s[i])) continue;
    std::size_t j = i;
    while (j < s.size() && is_digit(s[j])) ++j;
    while (j < s.size() && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r' || s[j] == '\f' || s[j] == '\v')) ++j;
    std::size_t k = j;
    while (k < s.size() && (is_alpha(s[k]) || static_cast<unsigned char>(s[k]) >= 0x80)) ++k;
    if (k > j) {
      std::string unit(s.substr(j, k - j));
      for (auto& c : unit) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::string trimmed = !unit.empty() && unit.back() == 's' ? unit.substr(0, unit.size() - 1) : unit;
      if (known(unit) || known(unit + "s") || known(trimmed)) return true;
    }
    i = k > i ? k - 1 : i;
  }
  return false;
}

// RFC 1123 host name: dot-separated labels of letters, digits and '-', not starting or ending
// with '-', each at most 63 octets, at most 255 in all.
bool is_hostname(std::string_view s) noexcept {
  if (s.empty() || s.size() > 255) return false;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (label.empty() || label.size() > 63) return false;
    if (label.front() == '-' || label.back() == '-') return false;
    for (const char c : label)
      if (!is_alnum(c) && c != '-') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// url.ParseRequestURI: an absolute URI (scheme ":" ...) or an absolute path; no control bytes.
bool is_uri(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return false;
  if (s[0] == '/') return true;
  if (!is_alpha(s[0])) return false;
  for (std::size_t i = 1; i < s.size(); ++i) {
    const char c = s[i];
    if (c == ':') return true;
    if (!is_alnum(c) && c != '+' && c != '-' && c != '.') return false;
  }
  return false;
}

bool is_cidr(std::string_view s) noexcept {
  const auto slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  const std::string_view addr = s.substr(0, slash);
  const std::string_view bits = s.substr(slash + 1);
  int max_bits = 0;
  if (is_ipv4(addr)) max_bits = 32;
  else if (is_ipv6(addr)) max_bits = 128;
  else return false;
  if (bits.empty() || bits.size() > 3) return false;
  int n = 0;
  for (const char c : bits) {
    if (!is_digit(c)) return false;
    n = n * 10 + (c - '0');
  }
  return n <= max_bits;
}

// net.ParseMAC: 6, 8 or 20 octets as xx:xx:.., xx-xx-.. or xxxx.xxxx.xxxx.
bool is_mac(std::string_view s) noexcept {
  if (s.size() < 14) return false;
  auto octets_ok = [](std::size_t n) { return n == 6 || n == 8 || n == 20; };
  if (s[2] == ':' || s[2] == '-') {
    if ((s.size() + 1) % 3 != 0) return false;
    if (!octets_ok((s.size() + 1) / 3)) return false;
    for (std::size_t i = 0; i < s.size(); i += 3) {
      if (!is_hex(s[i]) || !is_hex(s[i + 1])) return false;
      if (i + 2 < s.size() && s[i + 2] != s[2]) return false;
    }
    return true;
  }
  if (s[4] == '.') {
    if ((s.size() + 1) % 5 != 0) return false;
    if (!octets_ok(2 * (s.size() + 1) / 5)) return false;
    for (std::size_t i = 0; i < s.size(); i += 5) {
      for (std::size_t k = 0; k < 4; ++k)
        if (!is_hex(s[i + k])) return false;
      if (i + 4 < s.size() && s[i + 4] != '.') return false;
    }
    return true;
  }
  return false;
}

}  // namespace

// Go's parseIPv4 (1.17+): four decimal fields 0-255, no leading zeros.
bool is_ipv4(std::string_view s) noexcept {
  for (int field = 0; field < 4; ++field) {
    if (field > 0) {
      if (s.empty() || s[0] != '.') return false;
      s.remove_prefix(1);
    }
    std::size_t i = 0;
    int n = 0;
    while (i < s.size() && is_digit(s[i]) && i < 4) {
      n = n * 10 + (s[i] - '0');
      ++i;
    }
    if (i == 0 || i > 3 || n > 255) return false;
    if (i > 1 && s[0] == '0') return false;
    s.remove_prefix(i);
  }
  return s.empty();
}

// Go's parseIPv6: hex groups, one "::", an optional trailing dotted IPv4; no zone.
bool is_ipv6(std::string_view s) noexcept {
  int groups = 0;
  int ellipsis = -1;
  std::size_t i = 0;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    i = 2;
    if (i == s.size()) return true;
  }
  while (i < s.size()) {
    std::size_t j = i;
    std::uint32_t v = 0;
    while (j < s.size() && is_hex(s[j])) {
      v = v * 16 + static_cast<std::uint32_t>(hex_value(s[j]));
      if (v > 0xFFFF) return false;
      ++j;
    }
    if (j < s.size() && s[j] == '.') {
      if (ellipsis < 0 && groups != 6) return false;
      if (groups + 2 > 8) return false;
      if (!is_ipv4(s.substr(i))) return false;
      groups += 2;
      i = s.size();
      break;
    }
    if (j == i) return false;
    ++groups;
    i = j;
    if (i == s.size()) break;
    if (s[i] != ':' || i + 1 == s.size()) return false;
    ++i;
    if (s[i] == ':') {
      if (ellipsis >= 0) return false;
      ellipsis = groups;
      ++i;
      if (i == s.size()) break;
    }
    if (groups >= 8) return false;
  }
  if (ellipsis < 0) return groups == 8;
  return groups < 8;
}

bool check_format(std::string_view value, Format format) {
  switch (format) {
    case Format::None: return true;
    case Format::DateTime: return parse_rfc3339(value, false).has_value();
    case Format::Date: return valid_full_date(value);
    case Format::Byte: return is_base64(value);
    case Format::Int32:
      return is_integer(value, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max());
    case Format::Int64:
      return is_integer(value, std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max());
    case Format::IPv4: return value.find('.') != std::string_view::npos && (is_ipv4(value) || is_ipv6(value));
    case Format::IPv6: return value.find(':') != std::string_view::npos && (is_ipv4(value) || is_ipv6(value));
    case Format::UUID: return is_uuid(value);
    case Format::Duration: return is_duration(value);
    case Format::Hostname: return is_hostname(value);
    case Format::URI: return is_uri(value);
    case Format::CIDR: return is_cidr(value);
    case Format::MAC: return is_mac(value);
  }
  return true;
}

std::string_view format_name(Format format) noexcept {
  switch (format) {
    case Format::None: return "";
    case Format::DateTime: return "date-time";
    case Format::Date: return "date";
    case Format::Byte: return "byte";
    case Format::Int32: return "int32";
    case Format::Int64: return "int64";
    case Format::IPv4: return "ipv4";
    case Format::IPv6: return "ipv6";
    case Format::UUID: return "uuid";
    case Format::Duration: return "duration";
    case Format::Hostname: return "hostname";
    case Format::URI: return "uri";
    case Format::CIDR: return "cidr";
    case Format::MAC: return "mac";
  }
  return "";
}

}  // namespace rr::detail
