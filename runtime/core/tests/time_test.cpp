#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "rr/core/time.hpp"

using namespace std::chrono;
using namespace std::string_view_literals;

namespace {
system_clock::time_point at(int y, unsigned m, unsigned d, int h = 0, int mi = 0, int s = 0) {
  return sys_days(year{y} / month{m} / day{d}) + hours(h) + minutes(mi) + seconds(s);
}
}  // namespace

TEST_CASE("Time: RFC 3339 parsing") {
  CHECK(rr::Time("2024-05-01T12:00:00Z").time_point() == at(2024, 5, 1, 12));
  CHECK(rr::Time("2024-05-01T12:00:00.5+02:00").time_point() == at(2024, 5, 1, 10) + milliseconds(500));
  CHECK(rr::Time("2024-05-01T00:30:00-01:30").time_point() == at(2024, 5, 1, 2));
  CHECK(rr::Time("2024-05-01T12:00:00.123456789123Z").time_point() == at(2024, 5, 1, 12) + nanoseconds(123456789));
  CHECK(rr::Time("1970-01-01T00:00:00Z").time_point() == system_clock::time_point{});
  CHECK(rr::Time("1969-12-31T23:59:59Z").time_point() == system_clock::time_point{} - seconds(1));
  CHECK(rr::Time("2024-02-29T00:00:00Z").valid());
  for (const char* bad : {"", "2023-02-29T00:00:00Z", "2024-02-30T00:00:00Z", "2024-05-01 12:00:00Z",
                          "2024-05-01t12:00:00z", "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:00:60Z",
                          "2024-05-01T12:00:00", "2024-05-01T12:00:00+0200", "2024-5-01T12:00:00Z",
                          "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00Zjunk", "2024-05-01T12:00:00+24:00",
                          "2024-05-01", "x"}) {
    CAPTURE(bad);
    CHECK_FALSE(rr::Time(bad).valid());
  }
  // Outside what system_clock can count (int64 nanoseconds): not representable.
  CHECK_FALSE(rr::Time("0001-01-01T00:00:00Z").time_point().has_value());
}

TEST_CASE("Time::parse: a Time for a valid text, kept as given; nullopt otherwise") {
  const auto parsed = rr::Time::parse("2024-05-01T12:00:00.5+02:00");
  REQUIRE(parsed.has_value());
  CHECK(parsed->str() == "2024-05-01T12:00:00.5+02:00");
  CHECK(parsed->time_point() == at(2024, 5, 1, 10) + milliseconds(500));
  CHECK_FALSE(parsed->is_null());
  CHECK_FALSE(rr::Time::parse("yesterday").has_value());
  CHECK_FALSE(rr::Time::parse("").has_value());
  CHECK_FALSE(rr::Time::parse("2023-02-29T00:00:00Z").has_value());
  CHECK_FALSE(rr::Time::parse("0001-01-01T00:00:00Z").has_value());  // valid text, not representable
}

TEST_CASE("Time: formatting and round trip") {
  CHECK(rr::Time::from(at(2024, 5, 1, 12, 3, 4)).str() == "2024-05-01T12:03:04Z");
  CHECK(rr::Time::from(at(2024, 5, 1, 12) + milliseconds(999)).str() == "2024-05-01T12:00:00Z");  // truncated
  CHECK(rr::Time::from(system_clock::time_point{} - milliseconds(500)).str() == "1969-12-31T23:59:59Z");
  CHECK(rr::Time::from(at(1999, 12, 31, 23, 59, 59)).str() == "1999-12-31T23:59:59Z");
  for (const char* s : {"2024-05-01T12:00:00Z", "2000-02-29T23:59:59Z", "2262-01-01T00:00:00Z", "1678-01-01T00:00:00Z"}) {
    CAPTURE(s);
    const auto tp = rr::Time(s).time_point();
    REQUIRE(tp.has_value());
    CHECK(rr::Time::from(*tp).str() == s);
  }
  // Offsets normalise to UTC.
  CHECK(rr::Time::from(*rr::Time("2024-05-01T12:00:00+05:30").time_point()).str() == "2024-05-01T06:30:00Z");
  CHECK(rr::Time("a") == rr::Time("a"));
  CHECK(rr::Time("2024-05-01T12:00:00Z") != rr::Time("2024-05-01T12:00:00+00:00"));  // textual identity
}

TEST_CASE("Bytes: standard base64 with padding") {
  CHECK(rr::Bytes::encode("").str() == "");
  CHECK(rr::Bytes::encode("f").str() == "Zg==");
  CHECK(rr::Bytes::encode("fo").str() == "Zm8=");
  CHECK(rr::Bytes::encode("foo").str() == "Zm9v");
  CHECK(rr::Bytes::encode("foobar").str() == "Zm9vYmFy");
  CHECK(rr::Bytes::encode("\xFF\xFE\x00\x01"sv).str() == "//4AAQ==");
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  CHECK(rr::Bytes::encode(all).decode() == all);
  CHECK(rr::Bytes("Zm9vYmFy").decode() == "foobar");
  CHECK(rr::Bytes("Zg==").decode() == "f");
  CHECK(rr::Bytes("Zm9v\nYmFy\r\n").decode() == "foobar");  // Go's decoder skips newlines
  CHECK(rr::Bytes("").decode() == "");
  for (const char* bad : {"Zg=", "Zg", "Z===", "Zm9v!", "=Zm9", "Zm=v", "Zg==Zg==", "Zm9-", "Zm9_"}) {
    CAPTURE(bad);
    CHECK_FALSE(rr::Bytes(bad).valid());
  }
}
