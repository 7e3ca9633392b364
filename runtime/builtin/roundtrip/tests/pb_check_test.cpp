// The protobuf fixture check (roundtrip/pb_check.hpp) against a fake kind whose codec does what
// each case needs: a lossless one, one that changes a byte, one that decodes to another object.
#include "pb_check.hpp"

#include <doctest/doctest.h>

#include <string>

#include "rr/core/errors.hpp"

using namespace std::string_literals;

namespace {

std::string same(std::string_view b) { return std::string(b); }
std::string flipped(std::string_view b) {
  std::string out(b);
  out.back() ^= 1;
  return out;
}
std::string throws(std::string_view) { throw rr::DecodeError("", 3, "protobuf: truncated varint"); }
std::string json_a(std::string_view) { return R"({"a":1,"b":[1,2]})"; }

rr::KindCodec kind(std::string (*reencode)(std::string_view), std::string (*to_json)(std::string_view)) {
  rr::KindCodec k{"v1", "Thing", nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, {}};
  k.pb_reencode = reencode;
  k.pb_to_json = to_json;
  return k;
}

}  // namespace

TEST_CASE("pb fixture: passes when the bytes survive and the object is the JSON form's") {
  const std::string json = R"({"b":[1,2.0],"a":1})";  // members in another order, 2 as 2.0
  const auto r = rr::roundtrip::check_pb_fixture(kind(same, json_a), "k8s\0\x0a\x00"s, &json);
  CHECK(r.passed);
  CHECK(r.detail.empty());
}

TEST_CASE("pb fixture: says where it fails") {
  const std::string other = R"({"a":1,"b":[1,3]})";
  CHECK(rr::roundtrip::check_pb_fixture(kind(flipped, json_a), "k8s\0\x0a\x00"s, nullptr).detail ==
        "protobuf does not survive decode and encode: first difference at byte 5 (0x00 expected, 0x01 written)");
  CHECK(rr::roundtrip::check_pb_fixture(kind(same, json_a), "x"s, &other).detail ==
        "protobuf decodes to another object than the JSON form: first difference at /b/1");
  CHECK(rr::roundtrip::check_pb_fixture(kind(throws, json_a), "x"s, nullptr).detail ==
        "protobuf does not decode: at (root) (byte 3): protobuf: truncated varint");
  CHECK(rr::roundtrip::check_pb_fixture(kind(nullptr, nullptr), "x"s, nullptr).detail ==
        "protobuf: the kind has no protobuf codec");
}

TEST_CASE("pb fixture: byte and JSON differences") {
  CHECK(rr::roundtrip::first_byte_difference("abc", "abc").empty());
  CHECK(rr::roundtrip::first_byte_difference("abc", "ab") == "byte 2 (3 bytes expected, 2 written)");
}

TEST_CASE("pb fixture: with an after_roundtrip file, the re-encoding must be its bytes") {
  const std::string fixture = "k8s\0\x0a\x00"s;
  const std::string after = flipped(fixture);  // what the kind's codec writes back
  CHECK(rr::roundtrip::check_pb_fixture(kind(flipped, json_a), fixture, nullptr, &after).passed);
  // The fixture's own bytes are no longer what is expected.
  CHECK(rr::roundtrip::check_pb_fixture(kind(same, json_a), fixture, nullptr, &after).detail ==
        "protobuf does not re-encode as its after_roundtrip file: first difference at byte 5 (0x01 expected, 0x00 "
        "written)");
}
