#include "rr/yaml/scalars.hpp"

#include <doctest/doctest.h>

#include "rr/yaml/reader.hpp"

using rr::Json;

namespace {

Json value_of(const std::string& text) {
  const auto read = rr::yaml::read("v: " + text + "\n");
  REQUIRE_FALSE(read.error);
  REQUIRE(read.documents.size() == 1);
  return read.documents[0].value["v"];
}

std::string error_of(const std::string& text) {
  const auto read = rr::yaml::read("v: " + text + "\n");
  REQUIRE(read.error);
  return read.error->go_text;
}

}  // namespace

// What sigs.k8s.io/yaml (go-yaml v2's resolve) makes of each, as the API server and kubectl read them.
TEST_CASE("scalars round-trip as go-yaml v2 resolves them") {
  CHECK(value_of("\"1\"") == "1");
  CHECK(value_of("'1'") == "1");
  CHECK(value_of("1").is_number_integer());
  CHECK(value_of("1") == 1);
  CHECK(value_of("true") == true);
  CHECK(value_of("\"true\"") == "true");
  CHECK(value_of("null").is_null());
  CHECK(value_of("~").is_null());
  CHECK(value_of("").is_null());
  CHECK(value_of("1.0").is_number_float());
  CHECK(value_of("1.0") == 1.0);
  CHECK(value_of("0x10") == 16);
  CHECK(value_of("0o17") == 15);
  CHECK(value_of("017") == 15);  // a leading 0 is octal in YAML 1.1
  CHECK(value_of("08") == 8.0);  // not octal: the float pattern takes it
  CHECK(value_of("0b101") == 5);
  CHECK(value_of("1_000") == 1000);
  CHECK(value_of("-7") == -7);
  CHECK(value_of(".5") == 0.5);
  CHECK(value_of("1.5e3") == 1500.0);
  CHECK(value_of("!!str 1") == "1");
}

TEST_CASE("YAML 1.1 booleans: yes, on, y are true; no, off, n are false (quoted, strings)") {
  for (const char* t : {"yes", "Yes", "YES", "on", "On", "ON", "y", "Y", "True", "TRUE"}) CHECK(value_of(t) == true);
  for (const char* f : {"no", "No", "NO", "off", "Off", "OFF", "n", "N", "False", "FALSE"}) CHECK(value_of(f) == false);
  CHECK(value_of("'yes'") == "yes");
  CHECK(value_of("yEs") == "yEs");
}

TEST_CASE(".inf and .nan have no JSON form: refused with encoding/json's words; quoted, strings") {
  CHECK(error_of(".inf").find("json: unsupported value: +Inf") != std::string::npos);
  CHECK(error_of("-.Inf").find("json: unsupported value: -Inf") != std::string::npos);
  CHECK(error_of(".NaN").find("json: unsupported value: NaN") != std::string::npos);
  CHECK(value_of("'.inf'") == ".inf");
  CHECK(value_of("inf") == "inf");
}

TEST_CASE("numbers beyond 64 bits: a float; one no double holds stays text") {
  CHECK(value_of("99999999999999999999").is_number_float());
  CHECK(value_of("18446744073709551615").is_number_unsigned());
  CHECK(value_of("-9223372036854775808") == INT64_MIN);
  CHECK(value_of("1e999") == "1e999");
  CHECK(value_of("0xFFFFFFFFFFFFFFFFFF").is_number_float());
  CHECK(value_of("1.2.3") == "1.2.3");
  CHECK(value_of("-a") == "-a");
  CHECK(value_of("+") == "+");
  CHECK(value_of("0x") == "0x");
}

TEST_CASE("plain keys are resolved and written back as text; a null key is refused") {
  const auto read = rr::yaml::read("yes: a\n0x10: b\n'on': c\n1.5: d\n");
  REQUIRE_FALSE(read.error);
  CHECK(read.documents[0].value == Json{{"true", "a"}, {"16", "b"}, {"on", "c"}, {"1.5", "d"}});
  const auto null_key = rr::yaml::read("~: a\n");
  REQUIRE(null_key.error);
  CHECK(null_key.error->message == "unsupported map key of type: <nil>");
}

TEST_CASE("timestamps: go-yaml v2 makes a time.Time of them, which JSON writes in RFC 3339") {
  CHECK(value_of("2024-01-31") == "2024-01-31T00:00:00Z");
  CHECK(value_of("2024-1-2") == "2024-01-02T00:00:00Z");
  CHECK(value_of("2001-12-14t21:59:43.10-05:00") == "2001-12-14T21:59:43.1-05:00");
  CHECK(value_of("2001-12-14T21:59:43Z") == "2001-12-14T21:59:43Z");
  CHECK(value_of("2001-12-14T21:59:43.000+00:00") == "2001-12-14T21:59:43Z");
  CHECK(value_of("2001-12-14 21:59:43.5") == "2001-12-14T21:59:43.5Z");
  // Not time.Parse's: text as written (or a number).
  CHECK(value_of("2024-02-30") == "2024-02-30");
  CHECK(value_of("2023-02-29") == "2023-02-29");
  CHECK(value_of("2024-02-29") == "2024-02-29T00:00:00Z");
  CHECK(value_of("2001-12-14T21:59:43") == "2001-12-14T21:59:43");  // the T form needs a zone
  CHECK(value_of("2001-12-14 25:00:00") == "2001-12-14 25:00:00");
  CHECK(value_of("'2024-01-31'") == "2024-01-31");
  CHECK(value_of("20240131") == 20240131);
  const auto key = rr::yaml::read("2024-01-31: a\n");
  REQUIRE(key.error);
  CHECK(key.error->message == "unsupported map key of type: time.Time");
}
