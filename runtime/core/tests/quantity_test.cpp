#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <optional>

#include "rr/core/quantity.hpp"

namespace {
std::optional<std::int64_t> milli(const char* s) { return rr::Quantity(s).milli_value(); }
std::optional<std::int64_t> value(const char* s) { return rr::Quantity(s).value(); }
}  // namespace

TEST_CASE("Quantity: grammar") {
  for (const char* ok : {"0", "1", "100m", "1Gi", "1.5", "1e3", "1E3", "5e-3", "5e+3", "+5", "-1.5", ".5", "1.",
                         "12Mi", "1Ki", "1Ei", "1n", "1u", "1k", "1M", "1G", "1T", "1P", "1E", "0000", "0.5Ki"}) {
    CAPTURE(ok);
    CHECK(rr::Quantity(ok).valid());
  }
  // Quirks of Go's parser, kept: a bare suffix, sign or point is zero.
  for (const char* quirk : {"Gi", "m", "-", "+", "."}) {
    CAPTURE(quirk);
    CHECK(rr::Quantity(quirk).valid());
    CHECK(rr::Quantity(quirk).value() == 0);
  }
  for (const char* bad : {"", "abc", "1.2.3", "1ki", "1K", "1e", "1Kii", "1m3", "1 Gi", " 1", "1Gi ", "1e+",
                          "1x", "--1", "1e3.5", "0x10"}) {
    CAPTURE(bad);
    CHECK_FALSE(rr::Quantity(bad).valid());
    CHECK_FALSE(rr::Quantity(bad).milli_value().has_value());
  }
}

TEST_CASE("Quantity: milli_value and value round up away from zero, like Go") {
  CHECK(milli("100m") == 100);
  CHECK(value("100m") == 1);
  CHECK(milli("1Gi") == 1073741824000);
  CHECK(value("1Gi") == 1073741824);
  CHECK(milli("1.5") == 1500);
  CHECK(value("1.5") == 2);
  CHECK(milli("1e3") == 1000000);
  CHECK(value("1e3") == 1000);
  CHECK(milli("5E-3") == 5);
  CHECK(milli("-1.5") == -1500);
  CHECK(value("-1.5") == -2);
  CHECK(milli("0.0001") == 1);
  CHECK(milli("1n") == 1);
  CHECK(value("1n") == 1);
  CHECK(milli("1e-10") == 1);
  CHECK(value("12Mi") == 12582912);
  CHECK(value("1.5Gi") == 1610612736);
  CHECK(value("0.5Ki") == 512);
  CHECK(milli("1.001Ki") == 1025024);
  CHECK(value("2k") == 2000);
  CHECK(value("3M") == 3000000);
  CHECK(value("1P") == 1000000000000000);
  CHECK(value("1E") == 1000000000000000000);
  CHECK_FALSE(milli("1E").has_value());  // 1e21 does not fit an int64
  CHECK(value("0") == 0);
  CHECK(value("-0") == 0);
  CHECK(value(".") == 0);  // Go's parser accepts a bare point as zero
  CHECK(value("9223372036854775807") == std::numeric_limits<std::int64_t>::max());
  CHECK_FALSE(milli("9223372036854775807").has_value());
  // Past the int64 range Go caps DecimalSI/BinarySI quantities at 2^63-1 when parsing...
  CHECK(value("9223372036854775808") == std::numeric_limits<std::int64_t>::max());
  CHECK(value("8Ei") == std::numeric_limits<std::int64_t>::max());
  // ...but not exponent-form ones.
  CHECK_FALSE(value("1e19").has_value());
  CHECK_FALSE(value("1e2000000000").has_value());
  CHECK(milli("0.000000000000000000000000000000000000001") == 1);
}

TEST_CASE("Quantity: text identity, numbers, as_double") {
  CHECK(rr::Quantity("1Gi") != rr::Quantity("1024Mi"));
  CHECK(rr::Quantity("1Gi").milli_value() == rr::Quantity("1024Mi").milli_value());
  const auto n = rr::Quantity::from_number("1.50");
  CHECK(n.was_number());
  CHECK(n.str() == "1.50");
  CHECK(n.milli_value() == 1500);
  CHECK(n != rr::Quantity("1.50"));
  CHECK(rr::Quantity("1.5Gi").as_double() == doctest::Approx(1610612736.0));
  CHECK(rr::Quantity("100m").as_double() == doctest::Approx(0.1));
  CHECK(rr::Quantity("-2k").as_double() == doctest::Approx(-2000.0));
  CHECK_FALSE(rr::Quantity("abc").as_double().has_value());
}
