// The protobuf reader and writer (rr/core/protobuf.hpp), the envelope, and the value types in
// their Kubernetes messages (rr/core/pb_codec.hpp), against bytes worked out by hand from the
// encoding Go's generated code writes.
#include "rr/core/protobuf.hpp"

#include <doctest/doctest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/pb_codec.hpp"

using namespace std::string_literals;

namespace {

template <class T>
std::string put(const T& v, rr::PbAs as = rr::PbAs::Plain) {
  std::string out;
  rr::PbWriter w(out);
  rr::pb_put(w, 1, v, as);
  return out;
}

// Decodes every field 1 of `bytes` into a T.
template <class T>
T get(const std::string& bytes, rr::PbAs as = rr::PbAs::Plain) {
  T v{};
  rr::PbReader r(bytes);
  while (r.next()) rr::pb_get(r, v, as);
  return v;
}

}  // namespace

TEST_CASE("protobuf writer: varints, scalars, strings, nested messages") {
  std::string out;
  rr::PbWriter w(out);
  w.int32_field(1, 150);
  CHECK(out == "\x08\x96\x01"s);
  out.clear();
  w.int32_field(2, -1);  // sign-extended to 64 bits: ten bytes
  CHECK(out == "\x10\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s);
  out.clear();
  w.bool_field(3, true);
  w.bytes_field(4, "");  // an empty string is still written
  w.double_field(5, 1.0);
  CHECK(out == "\x18\x01\x22\x00\x29\x00\x00\x00\x00\x00\x00\xf0\x3f"s);
  out.clear();
  const std::size_t mark = w.begin_message(1);
  w.bytes_field(1, std::string(200, 'x'));  // a message over 127 bytes: a two-byte length
  w.end_message(mark);
  CHECK(out.substr(0, 6) == "\x0a\xcb\x01\x0a\xc8\x01"s);
  CHECK(out.size() == 6 + 200);
}

TEST_CASE("protobuf reader: fields, nested messages, unknown fields kept as bytes") {
  const std::string bytes =
      "\x08\x96\x01\x12\x02\x08\x07\x18\x2a\x25\x01\x02\x03\x04\x31\x01\x02\x03\x04\x05\x06\x07\x08"s;
  rr::PbReader r(bytes);
  REQUIRE(r.next());
  CHECK(r.field() == 1);
  CHECK(r.read_int32() == 150);
  REQUIRE(r.next());
  rr::PbReader m = r.read_message();
  REQUIRE(m.next());
  CHECK(m.read_int64() == 7);
  CHECK_FALSE(m.next());
  rr::UnknownFields u;
  while (r.next()) rr::pb_keep_unknown(r, u);
  CHECK(u.protobuf() == bytes.substr(7));
  std::string out;
  rr::PbWriter w(out);
  rr::pb_put_unknown(w, u);
  CHECK(out == bytes.substr(7));
}

TEST_CASE("protobuf reader: malformed input is a DecodeError with the offset, never a crash") {
  struct Case {
    std::string bytes;
    const char* message;
    std::size_t offset;
  };
  const Case cases[] = {
      {"\x08"s, "protobuf: truncated varint", 1},
      {"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s, "protobuf: varint longer than ten bytes", 11},
      {"\x0a\x05\x01"s, "protobuf: length 5 past the end of the input", 2},
      {"\x12\x01\x01"s, "protobuf: field 2 has wire type 2, expected 0", 1},  // read as an int
      {"\x0b"s, "protobuf: unsupported wire type 3", 1},
      {"\x00"s, "protobuf: bad field number 0", 1},
      {"\x09\x01\x02"s, "protobuf: truncated fixed-size field", 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.message);
    try {
      rr::PbReader r(c.bytes);
      while (r.next()) {
        if (r.field() == 2) (void)r.read_int64();
        else r.skip();
      }
      FAIL("no error");
    } catch (const rr::DecodeError& e) {
      CHECK(e.message() == c.message);
      CHECK(e.offset() == c.offset);
    }
  }
}

TEST_CASE("protobuf envelope: k8s\\0 + runtime.Unknown, every member written as Go does") {
  rr::PbEnvelope e{"apps/v1", "Deployment", "\x0a\x00"s, "", ""};
  const std::string bytes = rr::encode_envelope(e);
  CHECK(bytes == "k8s\0\x0a\x15\x0a\x07"
                 "apps/v1\x12\x0a"
                 "Deployment\x12\x02\x0a\x00\x1a\x00\x22\x00"s);
  CHECK(rr::decode_envelope(bytes) == e);
  CHECK_THROWS_AS(rr::decode_envelope("{}"), rr::DecodeError);
  CHECK_THROWS_AS(rr::decode_envelope("k8s\0\x0a\x20"s), rr::DecodeError);
}

TEST_CASE("protobuf values: Quantity, IntOrString, Time, MicroTime, bytes, JSON") {
  CHECK(put(rr::Quantity("500m")) == "\x0a\x06\x0a\x04"
                                     "500m"s);
  CHECK(get<rr::Quantity>(put(rr::Quantity("1Gi"))) == rr::Quantity("1Gi"));

  CHECK(put(rr::IntOrString(8080)) == "\x0a\x07\x08\x00\x10\x90\x3f\x1a\x00"s);
  CHECK(put(rr::IntOrString("http")) == "\x0a\x0a\x08\x01\x10\x00\x1a\x04http"s);
  CHECK(get<rr::IntOrString>(put(rr::IntOrString("25%"))) == rr::IntOrString("25%"));
  CHECK(get<rr::IntOrString>(put(rr::IntOrString(3))) == rr::IntOrString(3));

  // 2008-01-01T01:01:01Z is 1199149261 s; Time has second precision, MicroTime six digits.
  const std::string ts = put(rr::Time("2008-01-01T01:01:01Z"));
  CHECK(ts == "\x0a\x08\x08\xcd\xa1\xe6\xbb\x04\x10\x00"s);
  CHECK(get<rr::Time>(ts) == rr::Time("2008-01-01T01:01:01Z"));
  CHECK(get<rr::Time>(ts, rr::PbAs::MicroTime) == rr::Time("2008-01-01T01:01:01.000000Z"));
  CHECK(get<rr::Time>(put(rr::Time("2008-01-01T01:01:01.250000Z")), rr::PbAs::MicroTime) ==
        rr::Time("2008-01-01T01:01:01.250000Z"));
  CHECK(put(rr::Time()) == "\x0a\x00"s);  // Go's zero time
  CHECK_THROWS_AS(get<rr::Time>("\x0a\x0a\x08\xff\xff\xff\xff\xff\xff\xff\xff\x7f"s), rr::DecodeError);
  CHECK(get<rr::Time>("\x0a\x00"s) == rr::Time());

  CHECK(put(rr::Bytes::encode("\x01\x02")) == "\x0a\x02\x01\x02"s);
  CHECK(get<rr::Bytes>("\x0a\x02\x01\x02"s) == rr::Bytes::encode("\x01\x02"));

  const rr::Json raw = rr::Json::parse(R"({"a":1})");
  CHECK(put(raw) == "\x0a\x09\x0a\x07{\"a\":1}"s);
  CHECK(get<rr::Json>(put(raw)) == raw);
  CHECK_THROWS_AS(get<rr::Json>("\x0a\x03\x0a\x01{"s), rr::DecodeError);
}

TEST_CASE("protobuf containers: repeated fields, maps in key order, list-wrapping messages") {
  const std::vector<std::string> list = {"a", "b"};
  CHECK(put(list) == "\x0a\x01"
                     "a\x0a\x01"
                     "b"s);
  CHECK(get<std::vector<std::string>>(put(list)) == list);
  CHECK(put(std::vector<std::string>{}).empty());

  const std::map<std::string, std::string> map = {{"b", "2"}, {"a", "1"}};
  CHECK(put(map) == "\x0a\x06\x0a\x01"
                    "a\x12\x01"
                    "1\x0a\x06\x0a\x01"
                    "b\x12\x01"
                    "2"s);
  CHECK(get<std::map<std::string, std::string>>(put(map)) == map);

  const std::map<std::string, std::vector<std::string>> extra = {{"k", {"x", "y"}}};
  const std::string wrapped = put(extra, rr::PbAs::ItemsMessage);
  CHECK(wrapped == "\x0a\x0b\x0a\x01k\x12\x06\x0a\x01x\x0a\x01y"s);
  CHECK(get<std::map<std::string, std::vector<std::string>>>(wrapped, rr::PbAs::ItemsMessage) == extra);

  CHECK(put(std::optional<std::int32_t>()).empty());
  CHECK(get<std::optional<std::int32_t>>("\x08\x00"s) == 0);
}

TEST_CASE("protobuf omit_empty_strings: an optional string Go wrote empty reads as absent, as Go's JSON omits it") {
  // Field 1 (a string) written empty, then a nested message whose field 1 is empty too.
  const std::string bytes = "\x0a\x00\x12\x02\x0a\x00"s;
  struct Inner {
    std::optional<std::string> name;
    void rr_decode_pb(rr::PbReader& r) {
      while (r.next()) r.field() == 1 ? rr::pb_get(r, name) : r.skip();
    }
    void rr_encode_pb(rr::PbWriter& w) const { rr::pb_put(w, 1, name); }
  };
  struct Outer {
    std::optional<std::string> name;
    std::optional<Inner> inner;
    void rr_decode_pb(rr::PbReader& r) {
      while (r.next()) {
        if (r.field() == 1) {
          rr::pb_get(r, name);
        } else if (r.field() == 2) {
          rr::pb_get(r, inner);
        } else {
          r.skip();
        }
      }
    }
    void rr_encode_pb(rr::PbWriter& w) const {
      rr::pb_put(w, 1, name);
      rr::pb_put(w, 2, inner);
    }
  };
  const auto kept = rr::decode_pb<Outer>(bytes);
  REQUIRE(kept.name);
  CHECK(kept.name->empty());
  REQUIRE(kept.inner);
  CHECK(kept.inner->name == std::optional<std::string>(""));
  const auto omitted = rr::decode_pb<Outer>(bytes, /*omit_empty_strings=*/true);
  CHECK_FALSE(omitted.name);
  REQUIRE(omitted.inner);  // a message is not a string: present, its empty member gone
  CHECK_FALSE(omitted.inner->name);
  std::string required_bytes;
  rr::PbWriter w(required_bytes);
  w.bytes_field(1, "");
  rr::PbReader r(required_bytes);
  r.set_omit_empty_strings(true);
  std::string plain = "x";
  while (r.next()) rr::pb_get(r, plain);
  CHECK(plain.empty());  // a plain (required) string is read as it is
}
