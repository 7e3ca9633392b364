#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/json.hpp"
#include "rr/core/json_writer.hpp"
#include "rr/core/unknown_fields.hpp"

TEST_CASE("writer: escaping") {
  rr::JsonWriter w;
  w.value(std::string_view("q\" b\\ \b\f\n\r\t \x01\x1f \x7f \xC3\xA9 /"));
  CHECK(w.str() == R"("q\" b\\ \b\f\n\r\t \u0001\u001f )" "\x7f \xC3\xA9 /\"");
  rr::JsonWriter k;
  k.begin_object();
  k.key("a\"b");
  k.value(1);
  k.key_literal("plain");
  k.null();
  k.end_object();
  CHECK(k.str() == R"({"a\"b":1,"plain":null})");
}

TEST_CASE("writer: numbers") {
  auto d = [](double v) {
    rr::JsonWriter w;
    w.value(v);
    return w.take();
  };
  CHECK(d(1.0) == "1");  // nlohmann's dump() writes 1.0; both read back the same
  CHECK(d(0.1) == "0.1");
  CHECK(d(-2.5) == "-2.5");
  CHECK(d(1e300) == "1e+300");
  CHECK(d(5e-324) == "5e-324");
  CHECK(d(std::nan("")) == "null");
  CHECK(d(std::numeric_limits<double>::infinity()) == "null");
  CHECK(d(-std::numeric_limits<double>::infinity()) == "null");
  for (double v : {0.1, 1.0 / 3, 123456.789, 1e21, 2.2250738585072014e-308, 9007199254740993.0}) {
    const std::string text = d(v);
    rr::JsonReader r(text);
    double back = 0;
    r.read(back);
    CHECK(back == v);
  }
  rr::JsonWriter w;
  w.begin_array();
  w.value(std::int32_t{-2147483647 - 1});
  w.value(std::int64_t{INT64_MAX});
  w.value(true);
  w.value(false);
  w.end_array();
  CHECK(w.str() == "[-2147483648,9223372036854775807,true,false]");
}

TEST_CASE("writer: commas across nesting") {
  std::string out;
  rr::JsonWriter w(out);
  w.begin_object();
  w.key_literal("a");
  w.begin_array();
  w.begin_object();
  w.end_object();
  w.begin_array();
  w.end_array();
  w.value("x");
  w.end_array();
  w.key_literal("b");
  w.begin_object();
  w.key_literal("c");
  w.raw("1.50");
  w.end_object();
  w.key_literal("d");
  w.value(rr::Json::parse(R"({"z":[1,null]})"));
  rr::UnknownFields u;
  u.set("u1", "[]");
  u.set("u\"2", "{\"k\":true}");
  w.unknown(u);
  w.end_object();
  CHECK(out == R"({"a":[{},[],"x"],"b":{"c":1.50},"d":{"z":[1,null]},"u1":[],"u\"2":{"k":true}})");
  CHECK(&w.str() == &out);
}

TEST_CASE("reader -> writer round trip reproduces tricky documents") {
  const std::vector<std::string> docs = {
      R"({"a":[1,-0,1.5e300,"x\u0000y","\ud83d\ude00"],"b":{"":{"":[]}},"c":null,"d":true})",
      R"([[[[[[[[]]]]]]],{},"\\\"\/",0.000001,123456789012345678])",
      R"({"escaped \"key\"":"v","tab\t":"\u001f"})",
      R"("just a string")",
      R"(-9223372036854775808)",
  };
  for (const auto& d : docs) {
    CAPTURE(d);
    const auto dom = rr::decode_text<rr::Json>(d);
    const std::string text = rr::encode_text(dom);
    CHECK(rr::Json::parse(text) == rr::Json::parse(d));
    // and through skip(out), byte for byte up to whitespace
    rr::JsonReader r(d);
    std::string min;
    r.skip(min);
    CHECK(rr::Json::parse(min) == rr::Json::parse(d));
  }
}
