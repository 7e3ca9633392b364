// Timestamp and duration arithmetic, text forms and civil time (time_util.hpp).
#include "time_util.hpp"

#include <cstdio>

namespace rr::cel {

namespace {

constexpr std::int32_t kNanos = 1000000000;

// Exact arithmetic for duration text (GCC and clang both have it; __extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 Int128;

std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2 ? 1 : 0;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct Ymd {
  std::int64_t y;
  unsigned m, d;
};

Ymd civil_from_days(std::int64_t z) {
  z += 719468;
  const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t y = static_cast<std::int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {y + (m <= 2 ? 1 : 0), m, d};
}

std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

}  // namespace

bool decimal_digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const char c = s[pos + i];
    if (c < '0' || c > '9') return false;
    out = out * 10 + (c - '0');
  }
  return true;
}

bool in_range(Timestamp t) { return t.seconds >= kMinTimestampSeconds && t.seconds <= kMaxTimestampSeconds; }

bool in_range(Duration d) {
  // Floor form: -kMax seconds exactly is the lowest value.
  return d.seconds >= -kMaxDurationSeconds &&
         (d.seconds < kMaxDurationSeconds || (d.seconds == kMaxDurationSeconds && d.nanos == 0));
}

std::optional<Timestamp> add(Timestamp t, Duration d) {
  std::int64_t s = t.seconds + d.seconds;  // both well inside int64
  std::int32_t n = t.nanos + d.nanos;
  if (n >= kNanos) {
    n -= kNanos;
    ++s;
  }
  const Timestamp r{s, n};
  if (!in_range(r)) return std::nullopt;
  return r;
}

std::optional<Duration> add(Duration a, Duration b) {
  std::int64_t s = a.seconds + b.seconds;
  std::int32_t n = a.nanos + b.nanos;
  if (n >= kNanos) {
    n -= kNanos;
    ++s;
  }
  const Duration r{s, n};
  if (!in_range(r)) return std::nullopt;
  return r;
}

Duration negate(Duration d) {
  if (d.nanos == 0) return {-d.seconds, 0};
  return {-d.seconds - 1, kNanos - d.nanos};
}

std::optional<std::int64_t> total_nanos(Duration d) {
  std::int64_t r;
  if (__builtin_mul_overflow(d.seconds, std::int64_t{kNanos}, &r)) return std::nullopt;
  if (__builtin_add_overflow(r, std::int64_t{d.nanos}, &r)) return std::nullopt;
  return r;
}

std::optional<Duration> subtract(Timestamp a, Timestamp b) {
  std::int64_t s = a.seconds - b.seconds;
  std::int32_t n = a.nanos - b.nanos;
  if (n < 0) {
    n += kNanos;
    --s;
  }
  const Duration r{s, n};
  if (!total_nanos(r)) return std::nullopt;
  return r;
}

std::optional<Timestamp> parse_timestamp(std::string_view s) {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (!decimal_digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !decimal_digits(s, 5, 2, month) ||
      s[7] != '-' || !decimal_digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') ||
      !decimal_digits(s, 11, 2, hour) || s[13] != ':' || !decimal_digits(s, 14, 2, minute) || s[16] != ':' ||
      !decimal_digits(s, 17, 2, second))
    return std::nullopt;
  std::size_t pos = 19;
  std::int32_t nanos = 0;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int count = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (count < 9) nanos = nanos * 10 + (s[pos] - '0');
      ++count;
      ++pos;
    }
    if (count == 0) return std::nullopt;
    for (int i = count; i < 9; ++i) nanos *= 10;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return std::nullopt;
  static constexpr int kDays[] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDays[month - 1] || (month == 2 && day == 29 && !leap)) return std::nullopt;
  std::int64_t offset = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh = 0, om = 0;
    if (!decimal_digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !decimal_digits(s, pos + 4, 2, om) || oh > 23 || om > 59)
      return std::nullopt;
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  const std::int64_t days = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day));
  const Timestamp t{days * 86400 + hour * 3600 + minute * 60 + second - offset, nanos};
  if (!in_range(t)) return std::nullopt;
  return t;
}

std::string format_timestamp(Timestamp t) {
  const CivilTime c = civil(t, 0);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", static_cast<long long>(c.year), c.month, c.day,
                c.hours, c.minutes, c.seconds);
  std::string out = buf;
  if (t.nanos != 0) {
    std::snprintf(buf, sizeof buf, ".%09d", t.nanos);
    std::string frac = buf;
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out + "Z";
}

std::optional<Duration> parse_duration(std::string_view s) {
  // Go's time.ParseDuration grammar, computed exactly in nanoseconds as a 128-bit integer.
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return Duration{};
  if (s.empty()) return std::nullopt;
  Int128 total = 0;
  const Int128 limit = static_cast<Int128>(kMaxDurationSeconds) * kNanos;
  while (!s.empty()) {
    Int128 whole = 0;
    std::size_t i = 0;
    bool any = false;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
      whole = whole * 10 + (s[i] - '0');
      if (whole > limit) return std::nullopt;
      ++i;
      any = true;
    }
    Int128 frac = 0, scale = 1;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        if (scale < static_cast<Int128>(1000000000000000000LL)) {
          frac = frac * 10 + (s[i] - '0');
          scale *= 10;
        }
        ++i;
        any = true;
      }
    }
    if (!any) return std::nullopt;
    std::size_t j = i;
    while (j < s.size() && !(s[j] >= '0' && s[j] <= '9') && s[j] != '.') ++j;
    const std::string_view unit = s.substr(i, j - i);
    Int128 unit_nanos = 0;
    if (unit == "ns") unit_nanos = 1;
    else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") unit_nanos = 1000;
    else if (unit == "ms") unit_nanos = 1000000;
    else if (unit == "s") unit_nanos = kNanos;
    else if (unit == "m") unit_nanos = static_cast<Int128>(60) * kNanos;
    else if (unit == "h") unit_nanos = static_cast<Int128>(3600) * kNanos;
    else return std::nullopt;
    total += whole * unit_nanos + frac * unit_nanos / scale;
    if (total > limit) return std::nullopt;
    s.remove_prefix(j);
  }
  if (negative) total = -total;
  auto secs = static_cast<std::int64_t>(total / kNanos);
  auto nanos = static_cast<std::int32_t>(total % kNanos);
  if (nanos < 0) {
    nanos += kNanos;
    --secs;
  }
  return Duration{secs, nanos};
}

std::string format_duration(Duration d) {
  const bool negative = d.seconds < 0;
  const Duration a = negative ? negate(d) : d;
  std::string out = (negative ? "-" : "") + std::to_string(a.seconds);
  if (a.nanos != 0) {
    char buf[16];
    std::snprintf(buf, sizeof buf, ".%09d", a.nanos);
    std::string frac = buf;
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out + "s";
}

CivilTime civil(Timestamp t, std::int64_t utc_offset_seconds) {
  const std::int64_t local = t.seconds + utc_offset_seconds;
  const std::int64_t days = floor_div(local, 86400);
  const std::int64_t secs = local - days * 86400;
  const Ymd ymd = civil_from_days(days);
  CivilTime c{};
  c.year = ymd.y;
  c.month = static_cast<int>(ymd.m);
  c.day = static_cast<int>(ymd.d);
  c.day_of_year = static_cast<int>(days - days_from_civil(ymd.y, 1, 1));
  c.day_of_week = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
  c.hours = static_cast<int>(secs / 3600);
  c.minutes = static_cast<int>(secs / 60 % 60);
  c.seconds = static_cast<int>(secs % 60);
  c.nanos = t.nanos;
  return c;
}

}  // namespace rr::cel
