#include "pb_check.hpp"

#include <algorithm>
#include <cstdio>

#include "roundtrip.hpp"
#include "rr/core/errors.hpp"

namespace rr::roundtrip {

std::string first_byte_difference(std::string_view want, std::string_view got) {
  const auto [w, g] = std::mismatch(want.begin(), want.end(), got.begin(), got.end());
  if (w == want.end() && g == got.end()) return "";
  char text[96];
  const auto at = static_cast<std::size_t>(w - want.begin());
  if (w == want.end() || g == got.end()) {
    std::snprintf(text, sizeof text, "byte %zu (%zu bytes expected, %zu written)", at, want.size(), got.size());
  } else {
    std::snprintf(text, sizeof text, "byte %zu (0x%02x expected, 0x%02x written)", at, static_cast<unsigned char>(*w),
                  static_cast<unsigned char>(*g));
  }
  return text;
}

PbResult check_pb_fixture(const KindCodec& codec, std::string_view pb, const std::string* json_encoded,
                          const std::string* after_roundtrip) {
  if (!codec.pb_reencode || !codec.pb_to_json) return {false, "protobuf: the kind has no protobuf codec"};
  try {
    const std::string again = codec.pb_reencode(pb);
    if (after_roundtrip) {
      if (const std::string d = first_byte_difference(*after_roundtrip, again); !d.empty())
        return {false, "protobuf does not re-encode as its after_roundtrip file: first difference at " + d};
    } else if (const std::string d = first_byte_difference(pb, again); !d.empty()) {
      return {false, "protobuf does not survive decode and encode: first difference at " + d};
    }
    if (json_encoded) {
      if (const std::string d = first_difference(*json_encoded, codec.pb_to_json(pb)); !d.empty())
        return {false, "protobuf decodes to another object than the JSON form: first difference at " + d};
    }
  } catch (const DecodeError& e) {
    return {false, std::string("protobuf does not decode: ") + e.what()};
  }
  return {true, ""};
}

}  // namespace rr::roundtrip
