#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "test_types.hpp"

namespace {
template <class T>
std::string roundtrip(std::string_view json) {
  return rr::encode_text(rr::decode_text<T>(json));
}
}  // namespace

TEST_CASE("codec: IntOrString") {
  CHECK(rr::decode_text<rr::IntOrString>("5") == rr::IntOrString(5));
  CHECK(rr::decode_text<rr::IntOrString>(R"("50%")") == rr::IntOrString("50%"));
  CHECK(rr::decode_text<rr::IntOrString>("2.0") == rr::IntOrString(2));
  CHECK_THROWS_AS(rr::decode_text<rr::IntOrString>("1.5"), rr::DecodeError);
  CHECK_THROWS_AS(rr::decode_text<rr::IntOrString>("true"), rr::DecodeError);
  CHECK_THROWS_AS(rr::decode_text<rr::IntOrString>("null"), rr::DecodeError);
  CHECK_THROWS_AS(rr::decode_text<rr::IntOrString>("99999999999999999999"), rr::DecodeError);
  CHECK(roundtrip<rr::IntOrString>("8080") == "8080");
  CHECK(roundtrip<rr::IntOrString>(R"("http")") == R"("http")");
}

TEST_CASE("codec: Quantity keeps its text, numbers stay numbers") {
  const auto s = rr::decode_text<rr::Quantity>(R"("1Gi")");
  CHECK(s.str() == "1Gi");
  CHECK_FALSE(s.was_number());
  const auto n = rr::decode_text<rr::Quantity>("1.50");
  CHECK(n.was_number());
  CHECK(n.str() == "1.50");
  CHECK(rr::encode_text(n) == "1.50");
  CHECK(rr::encode_text(s) == R"("1Gi")");
  CHECK(roundtrip<rr::Quantity>("1e3") == "1e3");
  CHECK_THROWS_AS(rr::decode_text<rr::Quantity>("{}"), rr::DecodeError);
  // invalid quantity text still decodes losslessly; validity is a separate question
  CHECK(roundtrip<rr::Quantity>(R"("not a quantity")") == R"("not a quantity")");
}

TEST_CASE("codec: Time and Bytes") {
  CHECK(rr::decode_text<rr::Time>(R"("2024-05-01T12:00:00Z")").str() == "2024-05-01T12:00:00Z");
  CHECK(rr::decode_text<rr::Time>("null").str().empty());
  CHECK(rr::encode_text(rr::Time()) == "null");  // the zero time, as metav1.Time writes it
  CHECK(rr::encode_text(rr::decode_text<rr::Time>("null")) == "null");
  CHECK(rr::encode_text(rr::decode_text<std::map<std::string, rr::Time>>(R"({"a":null,"b":"2024-05-01T12:00:00Z"})")) ==
        R"({"a":null,"b":"2024-05-01T12:00:00Z"})");
  CHECK(rr::encode_text(rr::decode_text<rr::Time>(R"("")")) == R"("")");
  CHECK(rr::encode_text(rr::decode_text<std::optional<rr::Time>>("null")) == "null");
  CHECK(roundtrip<rr::Time>(R"("2024-05-01T12:00:00.5+02:00")") == R"("2024-05-01T12:00:00.5+02:00")");
  CHECK_THROWS_AS(rr::decode_text<rr::Time>("5"), rr::DecodeError);
  CHECK(rr::decode_text<rr::Bytes>(R"("Zm9v")").decode() == "foo");
  CHECK(roundtrip<rr::Bytes>(R"("Zm9v")") == R"("Zm9v")");
  CHECK_THROWS_AS(rr::decode_text<rr::Bytes>("[]"), rr::DecodeError);
}

TEST_CASE("codec: optional and Nullable null handling") {
  auto opt = rr::decode_text<std::optional<std::string>>("null");
  CHECK_FALSE(opt.has_value());
  opt = rr::decode_text<std::optional<std::string>>(R"("x")");
  CHECK(opt == "x");
  CHECK(rr::encode_text(std::optional<std::int64_t>{}) == "null");
  CHECK(rr::encode_text(std::optional<std::int64_t>{3}) == "3");

  auto n = rr::decode_text<rr::Nullable<std::int64_t>>("null");
  CHECK(n.is_null());
  CHECK_FALSE(n.is_absent());
  n = rr::decode_text<rr::Nullable<std::int64_t>>("4");
  CHECK(n.has_value());
  CHECK(*n == 4);
  CHECK(rr::encode_text(rr::Nullable<std::int64_t>::null()) == "null");
  CHECK(rr::Nullable<std::int64_t>().is_absent());
  CHECK(rr::Nullable<std::int64_t>() != rr::Nullable<std::int64_t>::null());

  // Absent vs null vs value inside a generated-style object.
  const auto absent = rr::decode_text<testgen::Spec>("{}");
  const auto null_member = rr::decode_text<testgen::Spec>(R"({"replicas":null})");
  CHECK_FALSE(absent.replicas.has_value());
  CHECK_FALSE(null_member.replicas.has_value());  // null for a non-nullable optional = absent
  CHECK(rr::encode_text(null_member) == "{}");
}

TEST_CASE("codec: containers") {
  const auto v = rr::decode_text<std::vector<std::int32_t>>("[1, 2, 3]");
  CHECK(v == std::vector<std::int32_t>{1, 2, 3});
  const auto b = rr::decode_text<std::vector<bool>>("[true,false,true]");
  CHECK(b == std::vector<bool>{true, false, true});
  CHECK(rr::encode_text(b) == "[true,false,true]");
  const auto m = rr::decode_text<std::map<std::string, std::string>>(R"({"b":"2","a":"1","a\/c":"3"})");
  CHECK(m.size() == 3);
  CHECK(m.at("a/c") == "3");
  CHECK(rr::encode_text(m) == R"({"a":"1","a/c":"3","b":"2"})");
  const auto nested = rr::decode_text<std::map<std::string, std::vector<std::optional<double>>>>(R"({"x":[1.5,null]})");
  CHECK(rr::encode_text(nested) == R"({"x":[1.5,null]})");
  CHECK_THROWS_AS(rr::decode_text<std::vector<std::int32_t>>(R"([1,"2"])"), rr::DecodeError);
}

TEST_CASE("codec: OpenEnum keeps unknown values") {
  using Mode = rr::OpenEnum<testgen::Mode>;
  const auto fast = rr::decode_text<Mode>(R"("Fast")");
  CHECK(fast == testgen::Mode::Fast);
  CHECK(fast.is_known());
  const auto medium = rr::decode_text<Mode>(R"("Medium")");
  CHECK_FALSE(medium.is_known());
  CHECK(medium.str() == "Medium");
  CHECK(rr::encode_text(medium) == R"("Medium")");
  CHECK(rr::encode_text(Mode(testgen::Mode::Slow)) == R"("Slow")");
}

TEST_CASE("codec: set_default") {
  std::optional<std::vector<std::int32_t>> ports;
  rr::set_default(ports, "[80,443]");
  CHECK(ports == std::vector<std::int32_t>{80, 443});
  std::optional<testgen::Port> port;
  rr::set_default(port, R"({"port":8080,"name":"http"})");
  REQUIRE(port);
  CHECK(port->port == 8080);
  rr::Nullable<std::string> n;
  rr::set_default(n, "null");
  CHECK(n.is_null());
}

TEST_CASE("codec: whole documents, DOM and text bridges") {
  const std::string doc =
      R"({"apiVersion":"example.com/v1","kind":"Widget","spec":{"ports":[{"port":80,"name":"http"},{"port":443,"x-extra":[1,{"a":null}]}],"replicas":3,"maxSurge":"25%","memory":"1Gi","future":{"k":"v"}},"status":{"ready":true}})";
  const auto w = rr::decode_text<testgen::Widget>(doc);
  CHECK(rr::encode_text(w) == doc);  // same member order, so byte-for-byte
  CHECK(rr::canonical_text(w) == doc);

  auto enc = [](rr::JsonWriter& wr, const void* p) { encode(wr, *static_cast<const testgen::Widget*>(p)); };
  auto dec = [](rr::JsonReader& r, void* p) { decode(r, *static_cast<testgen::Widget*>(p)); };
  rr::Json dom;
  rr::encode_to_dom(dom, enc, &w);
  CHECK(dom == rr::Json::parse(doc));
  testgen::Widget back;
  rr::decode_from_dom(dom, dec, &back);
  CHECK(back == w);
  CHECK(rr::encode_to_text(enc, &w) == doc);
  testgen::Widget from_text;
  rr::decode_from_text(doc, dec, &from_text);
  CHECK(from_text == w);
  CHECK_THROWS_AS(rr::decode_from_text(doc + "x", dec, &from_text), rr::DecodeError);

  // Reordered input: semantically the same object.
  const auto reordered = rr::decode_text<testgen::Widget>(
      R"({"status":{"ready":true},"spec":{"future":{"k":"v"},"memory":"1Gi","maxSurge":"25%","replicas":3,"ports":[{"name":"http","port":80},{"x-extra":[1,{"a":null}],"port":443}]},"kind":"Widget","apiVersion":"example.com/v1"})");
  CHECK(reordered == w);
  CHECK(rr::Json::parse(rr::encode_text(reordered)) == rr::Json::parse(doc));
}
