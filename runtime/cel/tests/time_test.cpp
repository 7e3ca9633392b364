// Timestamps and durations: RFC 3339 and Go duration text, ranges, civil time.
#include <doctest/doctest.h>

#include "time_util.hpp"
#include "time_zone.hpp"

using namespace rr::cel;

TEST_CASE("RFC 3339 timestamps parse with offsets and fractions and print in UTC") {
  const auto t = parse_timestamp("2009-02-13T23:31:30.5+01:00");
  REQUIRE(t.has_value());
  CHECK(t->seconds == 1234567890 - 3600);
  CHECK(t->nanos == 500000000);
  CHECK(format_timestamp(*t) == "2009-02-13T22:31:30.5Z");
  CHECK_FALSE(parse_timestamp("2009-02-30T00:00:00Z").has_value());
  CHECK_FALSE(parse_timestamp("0000-12-31T23:59:59Z").has_value());
  CHECK_FALSE(parse_timestamp("2009-02-13 23:31:30Z").has_value());
  CHECK(format_timestamp(Timestamp{kMinTimestampSeconds, 0}) == "0001-01-01T00:00:00Z");
}

TEST_CASE("Go durations parse exactly and print as seconds") {
  const auto d = parse_duration("1h2m3.5s");
  REQUIRE(d.has_value());
  CHECK(format_duration(*d) == "3723.5s");
  const auto n = parse_duration("-1.5ms");
  REQUIRE(n.has_value());
  CHECK(format_duration(*n) == "-0.0015s");
  CHECK(n->seconds == -1);
  CHECK(n->nanos == 998500000);
  CHECK(parse_duration("0").has_value());
  CHECK_FALSE(parse_duration("1").has_value());
  CHECK_FALSE(parse_duration("1d").has_value());
  CHECK_FALSE(parse_duration("320000000000s").has_value());
}

TEST_CASE("civil time and zones") {
  const Timestamp t{1234567890, 0};  // 2009-02-13T23:31:30Z, a Friday
  const CivilTime utc = civil(t, 0);
  CHECK(utc.year == 2009);
  CHECK(utc.month == 2);
  CHECK(utc.day == 13);
  CHECK(utc.day_of_week == 5);
  CHECK(utc.day_of_year == 43);
  const auto sydney = zone_offset("Australia/Sydney", t);
  REQUIRE(sydney.has_value());
  CHECK(*sydney == 11 * 3600);
  CHECK(zone_offset("-02:30", t) == -(2 * 3600 + 30 * 60));
  CHECK_FALSE(zone_offset("../etc/passwd", t).has_value());
}
