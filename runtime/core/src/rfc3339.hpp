// RFC 3339 date-time parsing shared by rr::Time and the `date-time`/`date` format checks.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace rr::detail {

struct DateTime {
  std::int64_t unix_seconds = 0;  // UTC
  std::uint32_t nanos = 0;
};

// strict: Go's time.Parse(time.RFC3339, s) ('T' and 'Z' upper case, 2-digit fields, optional
// fraction). Lenient additionally accepts lower-case 't' and 'z' (kube-openapi's
// strfmt date-time check).
std::optional<DateTime> parse_rfc3339(std::string_view s, bool strict) noexcept;
// YYYY-MM-DD, a real calendar date.
bool valid_full_date(std::string_view s) noexcept;

}  // namespace rr::detail
