// Go's time.Parse (RFC 3339 layouts, as metav1.Time and MicroTime decode) and base64.StdEncoding
// errors, element by element as Go's time/format.go and encoding/base64 name them.
#include <doctest/doctest.h>

#include "go_scalars.hpp"

using namespace rr::validation::detail;

namespace {

std::string time_error(std::string_view value) { return go_time_parse_error(kRfc3339, value).value_or("ok"); }
std::string micro_error(std::string_view value) { return go_time_parse_error(kRfc3339Micro, value).value_or("ok"); }
std::string base64_error(std::string_view value) { return go_base64_error(value).value_or("ok"); }

const std::string kAs = R"( as "2006-01-02T15:04:05Z07:00": cannot parse )";

}  // namespace

TEST_CASE("RFC 3339 times that time.Parse takes") {
  CHECK(time_error("2024-02-29T23:59:59Z") == "ok");
  CHECK(time_error("2024-01-01T00:00:00+02:00") == "ok");
  CHECK(time_error("2024-01-01T00:00:00.123456789Z") == "ok");  // a fraction the layout lacks
  CHECK(time_error("2024-01-01T1:00:00Z") == "ok");             // "15" takes one digit
  CHECK(time_error("2024-01-01T00:00:00+24:00") == "ok");       // offsets up to 24 hours
  CHECK(micro_error("2024-01-01T00:00:00.000001Z") == "ok");
  CHECK(micro_error("2024-01-01T00:00:00,123456-07:00") == "ok");
}

TEST_CASE("each element's failure is named with the rest of the value and the layout element") {
  CHECK(time_error("garbage") == R"(parsing time "garbage")" + kAs + R"("garbage" as "2006")");
  CHECK(time_error("") == R"(parsing time "")" + kAs + R"("" as "2006")");
  CHECK(time_error("2024/01/01") == R"(parsing time "2024/01/01")" + kAs + R"("/01/01" as "-")");
  CHECK(time_error("2024-1-01T00:00:00Z") == R"(parsing time "2024-1-01T00:00:00Z")" + kAs + R"("1-01T00:00:00Z" as "01")");
  CHECK(time_error("2024-01-01 00:00:00Z") == R"(parsing time "2024-01-01 00:00:00Z")" + kAs + R"(" 00:00:00Z" as "T")");
  CHECK(time_error("2024-01-01T00:00:00") == R"(parsing time "2024-01-01T00:00:00")" + kAs + R"("" as "Z07:00")");
  CHECK(time_error("2024-01-01T00:00:00+0200") == R"(parsing time "2024-01-01T00:00:00+0200")" + kAs + R"("+0200" as "Z07:00")");
  CHECK(micro_error("2024-01-01T00:00:00Z") ==
        R"(parsing time "2024-01-01T00:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000")");
  CHECK(micro_error("2024-01-01T00:00:00.1234567Z") ==
        R"(parsing time "2024-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00")");
}

TEST_CASE("values out of range, extra text and impossible days") {
  CHECK(time_error("2024-13-01T00:00:00Z") == R"(parsing time "2024-13-01T00:00:00Z": month out of range)");
  CHECK(time_error("2024-01-01T24:00:00Z") == R"(parsing time "2024-01-01T24:00:00Z": hour out of range)");
  CHECK(time_error("2024-01-01T00:60:00Z") == R"(parsing time "2024-01-01T00:60:00Z": minute out of range)");
  CHECK(time_error("2024-01-01T00:00:60Z") == R"(parsing time "2024-01-01T00:00:60Z": second out of range)");
  CHECK(time_error("2023-02-29T00:00:00Z") == R"(parsing time "2023-02-29T00:00:00Z": day out of range)");
  CHECK(time_error("2024-01-00T00:00:00Z") == R"(parsing time "2024-01-00T00:00:00Z": day out of range)");
  CHECK(time_error("2024-01-01T00:00:00Zjunk") == R"(parsing time "2024-01-01T00:00:00Zjunk": extra text: "junk")");
  CHECK(time_error("2024-01-01T00:00:00+25:00") ==
        R"(parsing time "2024-01-01T00:00:00+25:00": time zone offset hour out of range)");
  CHECK(time_error("2024-01-01T00:00:00+25:61") ==
        R"(parsing time "2024-01-01T00:00:00+25:61": time zone offset minute out of range)");
  CHECK(micro_error("2024-01-01T00:00:00.-00001Z") ==
        R"(parsing time "2024-01-01T00:00:00.-00001Z": fractional second out of range)");
  // Bytes outside printable ASCII are quoted as \x escapes.
  CHECK(time_error("\xC3\xA9") == R"(parsing time "\xc3\xa9")" + kAs + R"("\xc3\xa9" as "2006")");
}

TEST_CASE("base64.StdEncoding errors name the byte Go names") {
  CHECK(base64_error("") == "ok");
  CHECK(base64_error("YWJj") == "ok");
  CHECK(base64_error("YQ==") == "ok");
  CHECK(base64_error("YWI=") == "ok");
  CHECK(base64_error("YW\nJj\r\n") == "ok");  // newlines are skipped
  CHECK(base64_error("abc") == "illegal base64 data at input byte 0");
  CHECK(base64_error("YWJjZ") == "illegal base64 data at input byte 4");
  CHECK(base64_error("ab!d") == "illegal base64 data at input byte 2");
  CHECK(base64_error("YQ=") == "illegal base64 data at input byte 3");
  CHECK(base64_error("Y===") == "illegal base64 data at input byte 1");
  CHECK(base64_error("YQ==YQ==") == "illegal base64 data at input byte 4");
  CHECK(base64_error("YQ=x") == "illegal base64 data at input byte 2");
  CHECK(base64_error("not base64!") == "illegal base64 data at input byte 3");
}
