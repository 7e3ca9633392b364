// The CronJob schedule grammar the API server accepts: github.com/robfig/cron/v3's ParseStandard
// (five fields, names for months and weekdays, ranges, steps, '*' and '?', the @descriptors and
// @every <duration>, an optional TZ=/CRON_TZ= prefix), with its error texts.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rr::validation::detail {

// nullopt when `spec` parses; otherwise the parser's error, as err.Error() words it.
std::optional<std::string> cron_parse_error(std::string_view spec);

// time.LoadLocation's verdict on an IANA zone name: nullopt when it loads, else its error. Names are
// looked up in the system's zoneinfo (the API server embeds the same IANA database).
std::optional<std::string> time_zone_error(std::string_view name);

}  // namespace rr::validation::detail
