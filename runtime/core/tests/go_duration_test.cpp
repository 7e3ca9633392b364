// Go duration syntax: what the manager's --leader-elect-* and --graceful-shutdown-timeout flags and
// cert-manager's Certificate durations accept.
#include <doctest/doctest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include "rr/core/go_duration.hpp"

using namespace std::chrono_literals;
using rr::format_go_duration;
using rr::parse_go_duration;

TEST_CASE("parse_go_duration reads Go's syntax") {
  CHECK(parse_go_duration("15s") == 15s);
  CHECK(parse_go_duration("1m30s") == 90s);
  CHECK(parse_go_duration("500ms") == 500ms);
  CHECK(parse_go_duration("1.5h") == 90min);
  CHECK(parse_go_duration("2h45m") == 165min);
  CHECK(parse_go_duration("0") == 0s);
  CHECK(parse_go_duration("0s") == 0s);
  CHECK(parse_go_duration("-2s") == -2s);
  CHECK(parse_go_duration("+3ms") == 3ms);
  CHECK(parse_go_duration(".5s") == 500ms);
  CHECK(parse_go_duration("1.s") == 1s);
  CHECK(parse_go_duration("10us") == 10us);
  CHECK(parse_go_duration("10\xC2\xB5s") == 10us);
  CHECK(parse_go_duration("7ns") == 7ns);
  CHECK(parse_go_duration("1.000000001s") == 1000000001ns);
}

TEST_CASE("parse_go_duration rejects what Go rejects, with Go's messages") {
  auto message = [](const char* text) {
    try {
      (void)parse_go_duration(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("") == "time: invalid duration \"\"");
  CHECK(message("abc") == "time: invalid duration \"abc\"");
  CHECK(message("1") == "time: missing unit in duration \"1\"");
  CHECK(message("1d") == "time: unknown unit \"d\" in duration \"1d\"");
  CHECK(message(".s") == "time: invalid duration \".s\"");
  CHECK(message("-") == "time: invalid duration \"-\"");
  CHECK(message("s") == "time: invalid duration \"s\"");
  CHECK(message("1s 2s") == "time: unknown unit \"s \" in duration \"1s 2s\"");
  CHECK(message("9999999999h") == "time: invalid duration \"9999999999h\"");
}

TEST_CASE("format_go_duration writes Duration.String()") {
  CHECK(format_go_duration(0s) == "0s");
  CHECK(format_go_duration(15s) == "15s");
  CHECK(format_go_duration(90s) == "1m30s");
  CHECK(format_go_duration(1h) == "1h0m0s");
  CHECK(format_go_duration(500ms) == "500ms");
  CHECK(format_go_duration(1500ms) == "1.5s");
  CHECK(format_go_duration(1500us) == "1.5ms");
  CHECK(format_go_duration(2us) == "2\xC2\xB5s");
  CHECK(format_go_duration(12ns) == "12ns");
  CHECK(format_go_duration(-2s) == "-2s");
  for (const char* text : {"15s", "1m30s", "500ms", "2h45m0.5s", "1.25s"}) {
    CHECK(format_go_duration(parse_go_duration(text)) == text);
  }
}
