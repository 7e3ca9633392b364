#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/json_reader.hpp"
#include "test_types.hpp"

namespace {

std::string read_string(std::string_view json) {
  rr::JsonReader r(json);
  std::string s;
  r.read(s);
  r.finish();
  return s;
}

template <class T>
T read_value(std::string_view json) {
  rr::JsonReader r(json);
  T v{};
  r.read(v);
  r.finish();
  return v;
}

rr::DecodeError decode_error(std::string_view json, void (*fn)(rr::JsonReader&)) {
  try {
    rr::JsonReader r(json);
    fn(r);
  } catch (const rr::DecodeError& e) {
    return e;
  }
  FAIL("expected a DecodeError for " << json);
  return rr::DecodeError("", 0, "");
}

rr::Json read_dom(std::string_view json) {
  rr::JsonReader r(json);
  rr::Json j;
  r.read(j);
  r.finish();
  return j;
}

std::string minified(std::string_view json) {
  rr::JsonReader r(json);
  std::string out;
  r.skip(out);
  r.finish();
  return out;
}

}  // namespace

TEST_CASE("strings: escapes and UTF-8") {
  CHECK(read_string(R"("plain")") == "plain");
  CHECK(read_string(R"("a\"b\\c\/d\b\f\n\r\t")") == "a\"b\\c/d\b\f\n\r\t");
  CHECK(read_string(R"("\u0041\u00e9\u20AC")") == "A\xC3\xA9\xE2\x82\xAC");
  CHECK(read_string(R"("\ud83d\ude00")") == "\xF0\x9F\x98\x80");  // surrogate pair
  CHECK(read_string(R"("\u0000")") == std::string("\0", 1));
  CHECK(read_string("\"caf\xC3\xA9 \xF0\x9F\x98\x80\"") == "caf\xC3\xA9 \xF0\x9F\x98\x80");

  SUBCASE("unpaired surrogates become U+FFFD, like Go") {
    CHECK(read_string(R"("\ud800")") == "\xEF\xBF\xBD");
    CHECK(read_string(R"("\udc00x")") == "\xEF\xBF\xBDx");
    CHECK(read_string(R"("\ud800\u0041")") == "\xEF\xBF\xBD" "A");
  }
  SUBCASE("rejected") {
    for (const char* bad : {"\"a\nb\"", "\"\x01\"", R"("\x")", R"("\u12")", R"("\u12G4")", "\"abc", "\"\\",
                            "\"\xFF\"", "\"\xC0\xAF\"", "\"\xED\xA0\x80\"", "\"\xF4\x90\x80\x80\"", "\"\xE2\x82\""}) {
      CAPTURE(bad);
      CHECK_THROWS_AS(read_string(bad), rr::DecodeError);
    }
  }
}

TEST_CASE("numbers follow the RFC 8259 grammar") {
  CHECK(read_value<double>("0") == 0.0);
  CHECK(read_value<double>("-0.5") == -0.5);
  CHECK(read_value<double>("1e5") == 1e5);
  CHECK(read_value<double>("1E+2") == 100.0);
  CHECK(read_value<double>("2.5e-3") == 0.0025);
  CHECK(read_value<double>("0.1") == 0.1);
  CHECK(read_value<double>("1e-400") == 0.0);  // underflow rounds to zero
  CHECK_THROWS_AS(read_value<double>("1e400"), rr::DecodeError);
  for (const char* bad : {"01", "+1", ".5", "1.", "1e", "1e+", "-", "--1", "0x10", "1.e5", "-.5", "Infinity", "NaN"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(read_value<double>(bad), rr::DecodeError);
  }
}

TEST_CASE("integers: range and integrality") {
  CHECK(read_value<std::int32_t>("2147483647") == 2147483647);
  CHECK(read_value<std::int32_t>("-2147483648") == -2147483647 - 1);
  CHECK_THROWS_AS(read_value<std::int32_t>("2147483648"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int32_t>("-2147483649"), rr::DecodeError);
  CHECK(read_value<std::int64_t>("9223372036854775807") == INT64_MAX);
  CHECK(read_value<std::int64_t>("-9223372036854775808") == INT64_MIN);
  CHECK_THROWS_AS(read_value<std::int64_t>("9223372036854775808"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int64_t>("18446744073709551615"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int64_t>("-9223372036854775809"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int64_t>("123456789012345678901234567890"), rr::DecodeError);
  CHECK(read_value<std::int64_t>("-0") == 0);
  // Integral values written with a fraction or exponent are integers (the API server agrees).
  CHECK(read_value<std::int64_t>("1.0") == 1);
  CHECK(read_value<std::int64_t>("1e3") == 1000);
  CHECK(read_value<std::int64_t>("12.5e1") == 125);
  CHECK(read_value<std::int64_t>("0.0e99999") == 0);
  CHECK_THROWS_AS(read_value<std::int64_t>("1e19"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int32_t>("3e9"), rr::DecodeError);
  const auto e = decode_error("1.5", [](rr::JsonReader& r) { std::int64_t v; r.read(v); });
  CHECK(e.message() == "expected integer, got 1.5");
  CHECK_THROWS_AS(read_value<std::int64_t>("\"5\""), rr::DecodeError);
  CHECK_THROWS_AS(read_value<std::int64_t>("true"), rr::DecodeError);
}

TEST_CASE("literals, null and peek") {
  CHECK(read_value<bool>("true"));
  CHECK_FALSE(read_value<bool>(" false "));
  CHECK_THROWS_AS(read_value<bool>("tru"), rr::DecodeError);
  CHECK_THROWS_AS(read_value<bool>("null"), rr::DecodeError);
  rr::JsonReader r(R"( [null, 1, "s", {}, [], true] )");
  r.begin_array();
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::Null);
  CHECK(r.try_null());
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::Number);
  CHECK_FALSE(r.try_null());
  CHECK(r.read_number_text() == "1");
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::String);
  r.skip();
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::Object);
  r.skip();
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::Array);
  r.skip();
  REQUIRE(r.next_item());
  CHECK(r.peek() == rr::JsonKind::Bool);
  r.skip();
  CHECK_FALSE(r.next_item());
  r.finish();
}

TEST_CASE("read_number_text keeps the token verbatim") {
  rr::JsonReader r("  -12.50E+03 ");
  CHECK(r.read_number_text() == "-12.50E+03");
  r.finish();
}

TEST_CASE("structure errors") {
  auto bad_dom = [](std::string_view json) { CHECK_THROWS_AS(read_dom(json), rr::DecodeError); };
  for (const char* bad : {"", "   ", "[1,]", "[1 2]", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{\"a\":1", "[", "]",
                          "{\"a\":1}}", "[1]x", "{,}", "[,1]", "nul", "\"a\" \"b\""}) {
    CAPTURE(bad);
    bad_dom(bad);
    CHECK_THROWS_AS(minified(bad), rr::DecodeError);
  }
}

TEST_CASE("DecodeError carries a JSON pointer and byte offset") {
  const std::string doc = R"({"spec":{"ports":[{"port":1},{"port":1},{"port":"x"}]}})";
  try {
    (void)rr::decode_text<testgen::Widget>(doc);
    FAIL("no error");
  } catch (const rr::DecodeError& e) {
    CHECK(e.pointer() == "/spec/ports/2/port");
    CHECK(e.offset() == doc.find("\"x\""));
    CHECK(e.message() == "expected integer, got string");
    CHECK(std::string(e.what()) == std::string("at /spec/ports/2/port (byte ").append(std::to_string(doc.find("\"x\""))) +
                                       "): expected integer, got string");
  }

  SUBCASE("missing required member: object path + key") {
    try {
      (void)rr::decode_text<testgen::Widget>(R"({"spec":{"ports":[{"port":1},{"name":"x"}]}})");
      FAIL("no error");
    } catch (const rr::DecodeError& e) {
      CHECK(e.pointer() == "/spec/ports/1/port");
      CHECK(e.message() == "missing required member \"port\"");
    }
  }
  SUBCASE("pointer segments are escaped") {
    const auto e = decode_error(R"({"a/b~c": [true, {"x": nul}]})", [](rr::JsonReader& r) {
      rr::Json j;
      r.read(j);
    });
    CHECK(e.pointer() == "/a~1b~0c/1/x");
  }
  SUBCASE("escaped keys appear decoded in the pointer") {
    const auto e = decode_error(R"({"a\u002fb": 1.5})", [](rr::JsonReader& r) {
      r.begin_object();
      r.next_key();
      std::int32_t v;
      r.read(v);
    });
    CHECK(e.pointer() == "/a~1b");
  }
  SUBCASE("root errors") {
    const auto e = decode_error("  x", [](rr::JsonReader& r) { r.skip(); });
    CHECK(e.pointer() == "");
    CHECK(e.offset() == 2);
    CHECK(std::string(e.what()) == "at (root) (byte 2): expected a JSON value, got 'x'");
  }
  SUBCASE("trailing data") {
    const auto e = decode_error("{} {}", [](rr::JsonReader& r) {
      r.skip();
      r.finish();
    });
    CHECK(e.offset() == 3);
  }
  SUBCASE("type mismatch names both kinds") {
    const auto e = decode_error(R"({"spec": []})", [](rr::JsonReader& r) { (void)rr::decode_text<testgen::Widget>(R"({"spec": []})"); (void)r; });
    CHECK(e.pointer() == "/spec");
    CHECK(e.message() == "expected object, got array");
  }
}

TEST_CASE("depth limit: hostile nesting is an error, not a crash") {
  const std::string deep_arrays = std::string(1000, '[') + std::string(1000, ']');
  const std::string deep_objects = [] {
    std::string s;
    for (int i = 0; i < 1000; ++i) s += "{\"a\":";
    s += "1";
    s += std::string(1000, '}');
    return s;
  }();
  for (const auto* doc : {&deep_arrays, &deep_objects}) {
    CHECK_THROWS_AS(read_dom(*doc), rr::DecodeError);
    CHECK_THROWS_AS(minified(*doc), rr::DecodeError);
    CHECK_THROWS_AS((void)rr::decode_text<rr::Json>(*doc), rr::DecodeError);
  }
  // A typed decoder hits the same limit through begin_array().
  CHECK_THROWS_AS((void)rr::decode_text<testgen::Widget>(R"({"spec":{"ports":)" + deep_arrays + "}}"),
                  rr::DecodeError);
  // Within the limit everything works, including capture of unknown members.
  const std::string ok = std::string(500, '[') + std::string(500, ']');
  CHECK(minified(ok) == ok);
  CHECK(read_dom(ok).is_array());
  rr::JsonReader small("[[[1]]]", 2);
  CHECK_THROWS_AS(small.skip(), rr::DecodeError);
}

TEST_CASE("skip(out) reproduces values minified, tokens verbatim") {
  CHECK(minified(R"( { "a" : [ 1 , 2.50 , -0 , 1E+2 , "x\u0041\n" ] , "b" : { "c" : null , "d" : [ ] , "e" : { } } , "t" : true , "f" : false } )") ==
        R"({"a":[1,2.50,-0,1E+2,"x\u0041\n"],"b":{"c":null,"d":[],"e":{}},"t":true,"f":false})");
  CHECK(minified("\"\xF0\x9F\x98\x80\"") == "\"\xF0\x9F\x98\x80\"");
  CHECK(minified("0") == "0");
}

TEST_CASE("keys: views into the input, escaped keys decoded and stable across nesting") {
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "[";
  for (int i = 0; i < 40; ++i) deep += "]";
  const std::string doc = R"({"plain": 1, "esc\"aped\u00e9": )" + deep + R"(, "after": 2})";
  rr::JsonReader r(doc);
  r.begin_object();
  REQUIRE(r.next_key());
  CHECK(r.key() == "plain");
  CHECK(r.key().data() >= doc.data());
  CHECK(r.key().data() < doc.data() + doc.size());  // no copy
  r.skip();
  REQUIRE(r.next_key());
  const std::string_view k = r.key();
  CHECK(k == "esc\"aped\xC3\xA9");
  // Nest deeper than the reader's initial level capacity; the held view must stay valid.
  std::function<void()> nest = [&] {
    r.begin_array();
    while (r.next_item()) nest();
  };
  nest();
  CHECK(k == "esc\"aped\xC3\xA9");
  CHECK(r.key() == "esc\"aped\xC3\xA9");
  REQUIRE(r.next_key());
  CHECK(r.key() == "after");
  r.skip();
  CHECK_FALSE(r.next_key());
  r.finish();
}

TEST_CASE("read(Json) agrees with nlohmann::json::parse") {
  const std::vector<std::string> docs = {
      R"({"a":1,"b":[true,false,null],"c":{"d":"e"},"f":-1.5e3,"g":""})",
      R"([0,-0,18446744073709551615,18446744073709551616,-9223372036854775808,-9223372036854775809,1.0,1e-7])",
      R"("\ud83d\ude00 \u00e9 \n")",
      R"({"dup":1,"dup":2})",
      R"({"nested":{"deeper":{"deepest":[[],[{}],[[[]]]]}}})",
      "  \t\r\n 42 \n",
  };
  for (const auto& d : docs) {
    CAPTURE(d);
    CHECK(read_dom(d) == rr::Json::parse(d));
  }
}

TEST_CASE("capture_unknown keeps members exactly") {
  const auto w = rr::decode_text<testgen::Widget>(
      R"({"kind":"Widget","extra":{"x": [1, 2.0, "y"]},"spec":{"ports":[{"port":80,"zz":null}],"other":1e2}})");
  REQUIRE(w.unknown_fields.size() == 1);
  CHECK(*w.unknown_fields.find("extra") == R"({"x":[1,2.0,"y"]})");
  CHECK(*w.spec->unknown_fields.find("other") == "1e2");
  CHECK(*(*w.spec->ports)[0].unknown_fields.find("zz") == "null");
}

TEST_CASE("capture_unknown: many members stay linear, duplicates resolve to the last") {
  std::string doc = "{";
  for (int i = 0; i < 20000; ++i) {
    if (i) doc += ',';
    doc += "\"m";
    doc += std::to_string(i);
    doc += "\":";
    doc += std::to_string(i);
  }
  doc += ",\"m5\":\"again\",\"m100\":\"again\"}";
  rr::UnknownFields u;
  rr::JsonReader r(doc);
  r.begin_object();
  while (r.next_key()) r.capture_unknown(u);
  r.finish();
  CHECK(*u.find("m5") == R"("again")");  // a repeat in a large bag is appended: the last wins
  CHECK(*u.find("m100") == R"("again")");
  CHECK(*u.find("m19999") == "19999");
  rr::JsonWriter w;
  w.begin_object();
  w.unknown(u);
  w.end_object();
  CHECK(rr::Json::parse(w.str()) == rr::Json::parse(doc));
}
