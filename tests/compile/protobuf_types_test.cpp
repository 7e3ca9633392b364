// The protobuf codec rrgen generates from x-rrgen-protobuf (the openapi_protobuf golden case):
// field order, embedded structs, maps, wrapped lists, the runtime's value types, unknown fields,
// and malformed input.
#include <doctest/doctest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "pbt/com/example/shop/v1/cart.hpp"
#include "pbt/com/example/shop/v1/untyped.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/pb_codec.hpp"

using namespace std::string_literals;
namespace shop = pbt::com::example::shop::v1;

namespace {

shop::Item item(std::string sku, std::optional<std::int32_t> count = {}, std::optional<std::int64_t> weight = {}) {
  shop::Item i;
  i.sku = std::move(sku);
  i.count = count;
  i.weight = weight;
  return i;
}

shop::Cart cart() {
  shop::Cart c;
  c.metadata.name = "c1";
  auto& s = c.spec.emplace();
  s.owner = "ann";
  s.items = std::vector<shop::Item>{item("a", 2, -1)};
  s.tags = std::vector<std::string>{"x", "y"};
  s.labels = std::map<std::string, std::string>{{"b", "2"}, {"a", "1"}};
  s.budget = rr::Quantity("5");
  s.port = rr::IntOrString(80);
  s.created = rr::Time("2008-01-01T01:01:01Z");
  s.renewed = rr::Time("2008-01-01T01:01:01.500000Z");
  s.extra = std::map<std::string, std::vector<std::string>>{{"k", {"v"}}};
  s.raw = rr::Json::parse(R"({"a":1})");
  s.gift = true;
  s.total = 0.5;
  return c;
}

}  // namespace

TEST_CASE("generated protobuf: members in field order, as Go writes them") {
  CHECK(rr::encode_pb(item("a", 2, -1)) == "\x0a\x01"
                                           "a\x10\x02\x18\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"s);
  shop::CartSpec spec;
  spec.owner = "";  // required: written even empty
  spec.note = "n";  // embedded struct: its own message, field 12
  CHECK(rr::encode_pb(spec) == "\x0a\x00\x62\x03\x12\x01n"s);
  shop::Cart c;
  c.metadata.name = "c";
  // apiVersion and kind are the envelope's, not the message's: it starts with metadata.
  CHECK(rr::encode_pb(c).substr(2, 3) == "\x0a\x01"
                                         "c"s);
}

TEST_CASE("generated protobuf: decode then encode gives the same bytes and the same object") {
  const shop::Cart c = cart();
  const std::string bytes = rr::encode_pb(c);
  const auto back = rr::decode_pb<shop::Cart>(bytes);
  // The message has no apiVersion or kind (the envelope carries them): decoded, they stay empty.
  shop::Cart without_type = c;
  without_type.api_version.clear();
  without_type.kind.clear();
  CHECK(back == without_type);
  CHECK(rr::encode_pb(back) == bytes);
  // In its envelope, the object is whole again.
  const std::string envelope = rr::encode_envelope(
      {std::string(rr::ResourceTraits<shop::Cart>::api_version), "Cart", bytes, "", ""});
  const auto whole = rr::decode_envelope_object<shop::Cart>(envelope);
  CHECK(whole == c);
  CHECK(whole.to_json_text() == c.to_json_text());
  CHECK(rr::reencode_envelope<shop::Cart>(envelope) == envelope);
}

TEST_CASE("generated protobuf: unknown fields are kept and written back; bad input is a DecodeError") {
  const std::string bytes = rr::encode_pb(item("a")) + "\x78\x05"s;  // field 15, unknown
  const auto back = rr::decode_pb<shop::Item>(bytes);
  CHECK(back.unknown_fields.protobuf() == "\x78\x05"s);
  CHECK(rr::encode_pb(back) == bytes);
  CHECK_THROWS_AS(rr::decode_pb<shop::Item>("\x0a\x05"
                                            "ab"s),
                  rr::DecodeError);                                      // length past the end
  CHECK_THROWS_AS(rr::decode_pb<shop::Item>("\x10"s), rr::DecodeError);  // truncated varint
  CHECK_THROWS_AS(rr::decode_pb<shop::Item>("\x12\x01"
                                            "a"s),
                  rr::DecodeError);                                                      // count as bytes
  CHECK_THROWS_AS(rr::decode_pb<shop::Cart>("\x12\x03\x2a\x01\xff"s), rr::DecodeError);  // bad Quantity inside
}

TEST_CASE("generated protobuf: a member whose proto type does not fit its C++ type leaves the struct without a codec") {
  // Untyped's duration is a metav1.Duration message held as a string.
  CHECK_FALSE(rr::GeneratedPbType<pbt::com::example::shop::v1::Untyped>);
  CHECK(rr::GeneratedPbType<shop::CartSpec>);
}

TEST_CASE("generated protobuf: a required member the JSON lacked stays out of the message, as out of the JSON") {
  const auto spec = rr::Json::parse(R"({"note":"n"})").get<shop::CartSpec>();
  const std::string bytes = rr::encode_pb(spec);
  CHECK(bytes == "\x62\x03\x12\x01n"s);  // no field 1 (owner)
  const auto back = rr::decode_pb<shop::CartSpec>(bytes);
  CHECK(back == spec);
  CHECK(rr::Json(back) == rr::Json::parse(R"({"note":"n"})"));
  shop::CartSpec owned = back;
  owned.owner = "ann";
  CHECK(rr::encode_pb(owned) == "\x0a\x03"
                                "ann\x62\x03\x12\x01n"s);
  CHECK(rr::Json(owned)["owner"] == "ann");
}
