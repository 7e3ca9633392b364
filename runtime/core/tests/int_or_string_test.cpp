#include <doctest/doctest.h>

#include "rr/core/int_or_string.hpp"

TEST_CASE("IntOrString: kinds and to_string") {
  const rr::IntOrString a = 8080;
  const rr::IntOrString b = "http";
  const rr::IntOrString c = std::int64_t{1} << 40;
  CHECK(a.is_int());
  CHECK(a.int_value() == 8080);
  CHECK(b.is_string());
  CHECK(b.string_value() == "http");
  CHECK(a.to_string() == "8080");
  CHECK(b.to_string() == "http");
  CHECK(c.to_string() == "1099511627776");
  CHECK(rr::IntOrString() == rr::IntOrString(0));
  CHECK(rr::IntOrString("5") != rr::IntOrString(5));
}

TEST_CASE("IntOrString: scaled_value like intstr.GetScaledValueFromIntOrPercent") {
  CHECK(rr::IntOrString("50%").scaled_value(10, true) == 5);
  CHECK(rr::IntOrString("33%").scaled_value(10, true) == 4);
  CHECK(rr::IntOrString("33%").scaled_value(10, false) == 3);
  CHECK(rr::IntOrString("100%").scaled_value(7, false) == 7);
  CHECK(rr::IntOrString("0%").scaled_value(7, true) == 0);
  CHECK(rr::IntOrString("-10%").scaled_value(15, true) == -1);
  CHECK(rr::IntOrString(7).scaled_value(100, true) == 7);
  CHECK(rr::IntOrString("7").scaled_value(100, true) == 7);  // plain integer strings pass through
  CHECK_FALSE(rr::IntOrString("abc").scaled_value(10, true).has_value());
  CHECK_FALSE(rr::IntOrString("%").scaled_value(10, true).has_value());
  CHECK_FALSE(rr::IntOrString("5.5%").scaled_value(10, true).has_value());
  CHECK_FALSE(rr::IntOrString(" 5%").scaled_value(10, true).has_value());
  CHECK_FALSE(rr::IntOrString("").scaled_value(10, true).has_value());
}
