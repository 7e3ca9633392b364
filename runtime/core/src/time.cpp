// RFC 3339 by hand (no locale, no iostreams) and standard base64.
#include "rr/core/time.hpp"

#include <array>
#include <cstdio>

#include "rfc3339.hpp"

namespace rr {
namespace detail {
namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out) noexcept {
  if (at + n > s.size()) return false;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

bool parse_date(std::string_view s, int& y, int& m, int& d) noexcept {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return false;
  if (!digits(s, 0, 4, y) || !digits(s, 5, 2, m) || !digits(s, 8, 2, d)) return false;
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                        std::chrono::day{static_cast<unsigned>(d)}};
  return ymd.ok();
}

}  // namespace

bool valid_full_date(std::string_view s) noexcept {
  int y = 0, m = 0, d = 0;
  return s.size() == 10 && parse_date(s, y, m, d);
}

std::optional<DateTime> parse_rfc3339(std::string_view s, bool strict) noexcept {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!parse_date(s, y, mo, d)) return std::nullopt;
  if (s.size() < 20) return std::nullopt;
  const char t = s[10];
  if (!(t == 'T' || (!strict && t == 't'))) return std::nullopt;
  if (!digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec))
    return std::nullopt;
  if (h > 23 || mi > 59 || sec > 59) return std::nullopt;
  std::size_t p = 19;
  std::uint32_t nanos = 0;
  if (p < s.size() && s[p] == '.') {
    ++p;
    const std::size_t fb = p;
    std::uint32_t scale = 100000000;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') {
      nanos += static_cast<std::uint32_t>(s[p] - '0') * scale;  // digits past the 9th are truncated
      scale /= 10;
      ++p;
    }
    if (p == fb) return std::nullopt;
  }
  if (p >= s.size()) return std::nullopt;
  int offset = 0;
  const char z = s[p];
  if (z == 'Z' || (!strict && z == 'z')) {
    ++p;
  } else if (z == '+' || z == '-') {
    int oh = 0, om = 0;
    if (!digits(s, p + 1, 2, oh) || p + 3 >= s.size() || s[p + 3] != ':' || !digits(s, p + 4, 2, om)) return std::nullopt;
    if (oh > 23 || om > 59) return std::nullopt;
    offset = (oh * 60 + om) * 60 * (z == '-' ? -1 : 1);
    p += 6;
  } else {
    return std::nullopt;
  }
  if (p != s.size()) return std::nullopt;
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(mo)},
                                        std::chrono::day{static_cast<unsigned>(d)}};
  const std::int64_t days = std::chrono::sys_days(ymd).time_since_epoch().count();
  DateTime dt;
  dt.unix_seconds = days * 86400 + h * 3600 + mi * 60 + sec - offset;
  dt.nanos = nanos;
  return dt;
}

}  // namespace detail

Time Time::from(clock::time_point tp) {
  using namespace std::chrono;
  const auto secs = floor<seconds>(tp.time_since_epoch());
  const auto day_count = floor<days>(secs);
  const year_month_day ymd{sys_days(day_count)};
  const auto rem = (secs - day_count).count();
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), static_cast<int>(rem / 3600),
                static_cast<int>(rem / 60 % 60), static_cast<int>(rem % 60));
  return Time(buf);
}

std::optional<Time> Time::parse(std::string_view rfc3339) {
  Time time{std::string(rfc3339)};
  if (!time.time_point()) return std::nullopt;
  return time;
}

std::optional<Time::clock::time_point> Time::time_point() const noexcept {
  const auto dt = detail::parse_rfc3339(text_, true);
  if (!dt) return std::nullopt;
  // system_clock counts nanoseconds in an int64 on libstdc++/libc++: about years 1678..2262.
  using namespace std::chrono;
  constexpr std::int64_t kMaxSeconds = duration_cast<seconds>(clock::duration::max()).count() - 1;
  if (dt->unix_seconds > kMaxSeconds || dt->unix_seconds < -kMaxSeconds) return std::nullopt;
  return clock::time_point(duration_cast<clock::duration>(seconds(dt->unix_seconds)) +
                           duration_cast<clock::duration>(nanoseconds(dt->nanos)));
}

namespace {
constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<std::int8_t, 256> make_decode_table() {
  std::array<std::int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = static_cast<std::int8_t>(i);
  return t;
}
constexpr auto kDecode = make_decode_table();
}  // namespace

Bytes Bytes::encode(std::string_view raw) {
  std::string out;
  out.reserve((raw.size() + 2) / 3 * 4);
  const auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  std::size_t i = 0;
  for (; i + 3 <= raw.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8) | p[i + 2];
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back(kAlphabet[v & 63]);
  }
  if (raw.size() - i == 1) {
    const std::uint32_t v = std::uint32_t{p[i]} << 16;
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.append("==");
  } else if (raw.size() - i == 2) {
    const std::uint32_t v = (std::uint32_t{p[i]} << 16) | (std::uint32_t{p[i + 1]} << 8);
    out.push_back(kAlphabet[v >> 18]);
    out.push_back(kAlphabet[(v >> 12) & 63]);
    out.push_back(kAlphabet[(v >> 6) & 63]);
    out.push_back('=');
  }
  return Bytes(std::move(out));
}

// Go's base64.StdEncoding.DecodeString, which encoding/json uses for []byte: padding required,
// '\r' and '\n' ignored.
std::optional<std::string> Bytes::decode() const {
  std::string clean;
  clean.reserve(text_.size());
  for (const char c : text_)
    if (c != '\r' && c != '\n') clean.push_back(c);
  if (clean.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(clean.size() / 4 * 3);
  for (std::size_t i = 0; i < clean.size(); i += 4) {
    const bool last = i + 4 == clean.size();
    int pad = 0;
    if (last && clean[i + 3] == '=') pad = clean[i + 2] == '=' ? 2 : 1;
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = clean[i + static_cast<std::size_t>(k)];
      if (k >= 4 - pad) {
        if (c != '=') return std::nullopt;
        v <<= 6;
        continue;
      }
      const int d = kDecode[static_cast<unsigned char>(c)];
      if (d < 0) return std::nullopt;
      v = (v << 6) | static_cast<std::uint32_t>(d);
    }
    out.push_back(static_cast<char>(v >> 16));
    if (pad < 2) out.push_back(static_cast<char>((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(v & 0xFF));
  }
  return out;
}

}  // namespace rr
