// Timestamps and durations: range checks, arithmetic, RFC 3339 and Go duration text, civil dates
// (time zones: time_zone.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rr/cel/value.hpp"

namespace rr::cel {

inline constexpr std::int64_t kMinTimestampSeconds = -62135596800;  // 0001-01-01T00:00:00Z
inline constexpr std::int64_t kMaxTimestampSeconds = 253402300799;  // 9999-12-31T23:59:59Z
inline constexpr std::int64_t kMaxDurationSeconds = 315576000000;   // 10000 years

bool in_range(Timestamp t);
bool in_range(Duration d);

// Normalised sums; nullopt when the result leaves the valid range.
std::optional<Timestamp> add(Timestamp t, Duration d);
std::optional<Duration> add(Duration a, Duration b);
Duration negate(Duration d);
// t1 - t2, limited to what a Go time.Duration holds (±292 years), as cel-go does.
std::optional<Duration> subtract(Timestamp a, Timestamp b);

// RFC 3339 ("2009-02-13T23:31:30.5+01:00"); nullopt on bad text or out of range.
std::optional<Timestamp> parse_timestamp(std::string_view text);
// RFC 3339 in UTC with the fraction trimmed of trailing zeros, as Go's RFC3339Nano.
std::string format_timestamp(Timestamp t);
// Go's duration syntax ("1h2m3.5s", "-1.5ms", "0"); nullopt on bad text or out of range.
std::optional<Duration> parse_duration(std::string_view text);
// Seconds with the fraction trimmed: "3600s", "1.5s", "-0.000000001s".
std::string format_duration(Duration d);

// Reads exactly n decimal digits of s at pos into out; false when they are not all there.
bool decimal_digits(std::string_view s, std::size_t pos, std::size_t n, int& out);

// Total nanoseconds when they fit an int64.
std::optional<std::int64_t> total_nanos(Duration d);

// The broken-down local time of a timestamp at a UTC offset in seconds.
struct CivilTime {
  std::int64_t year;
  int month;        // 1..12
  int day;          // 1..31
  int day_of_year;  // 0..365
  int day_of_week;  // 0 = Sunday
  int hours, minutes, seconds;
  std::int32_t nanos;
};
CivilTime civil(Timestamp t, std::int64_t utc_offset_seconds);

}  // namespace rr::cel
