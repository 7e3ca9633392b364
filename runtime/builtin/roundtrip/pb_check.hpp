// The protobuf form of one of Kubernetes' round-trip fixtures (<group>.<version>.<Kind>.pb: the
// k8s\0 envelope around the object) through a generated kind's protobuf codec: the whole file
// decodes and re-encodes byte for byte, and its object is the same as the JSON form's (compared
// as JSON values: the JSON encodings of both decoded objects).
#pragma once
#include <string>
#include <string_view>

#include "rr/core/kind_codec.hpp"

namespace rr::roundtrip {

struct PbResult {
  bool passed = false;
  std::string detail;  // why not
};

// `json_encoded`: the JSON form of the same fixture, decoded and encoded with `codec` (null when
// there is none, and then only the bytes are checked). `after_roundtrip`: the bytes the re-encoding
// must be instead of the fixture's own (its .after_roundtrip.pb), null when there is none.
PbResult check_pb_fixture(const KindCodec& codec, std::string_view pb, const std::string* json_encoded,
                          const std::string* after_roundtrip = nullptr);

// Where two byte strings first differ, as "byte N (0xAB here, 0xCD there)", or "" when equal.
std::string first_byte_difference(std::string_view want, std::string_view got);

}  // namespace rr::roundtrip
