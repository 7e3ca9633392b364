// libFuzzer target for rr::PbReader and the value codecs of rr/core/pb_codec.hpp: arbitrary bytes
// must never crash them; the only exception allowed out is rr::DecodeError. Whatever decodes must
// re-encode and decode to the same value (the envelope and unknown fields byte for byte).
//
//   fuzz_protobuf -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/pb_codec.hpp"
#include "rr/core/protobuf.hpp"

namespace {

// A message shaped like a generated one: each field number a different kind of member.
struct Message {
  std::optional<std::string> name;
  std::optional<std::int64_t> count;
  std::optional<rr::Quantity> quantity;
  std::optional<rr::IntOrString> port;
  std::optional<rr::Time> time;
  std::optional<std::vector<std::string>> items;
  std::optional<std::map<std::string, std::vector<std::string>>> extra;
  std::optional<double> ratio;
  rr::UnknownFields unknown_fields;
  bool operator==(const Message&) const = default;

  void rr_decode_pb(rr::PbReader& r) {
    while (r.next()) {
      switch (r.field()) {
        case 1: rr::pb_get(r, name); break;
        case 2: rr::pb_get(r, count); break;
        case 3: rr::pb_get(r, quantity); break;
        case 4: rr::pb_get(r, port); break;
        case 5: rr::pb_get(r, time, rr::PbAs::MicroTime); break;
        case 6: rr::pb_get(r, items); break;
        case 7: rr::pb_get(r, extra, rr::PbAs::ItemsMessage); break;
        case 8: rr::pb_get(r, ratio); break;
        default: rr::pb_keep_unknown(r, unknown_fields);
      }
    }
  }
  void rr_encode_pb(rr::PbWriter& w) const {
    rr::pb_put(w, 1, name);
    rr::pb_put(w, 2, count);
    rr::pb_put(w, 3, quantity);
    rr::pb_put(w, 4, port);
    rr::pb_put(w, 5, time, rr::PbAs::MicroTime);
    rr::pb_put(w, 6, items);
    rr::pb_put(w, 7, extra, rr::PbAs::ItemsMessage);
    rr::pb_put(w, 8, ratio);
    rr::pb_put_unknown(w, unknown_fields);
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  try {
    const rr::PbEnvelope e = rr::decode_envelope(input);
    if (!(rr::decode_envelope(rr::encode_envelope(e)) == e)) std::abort();
  } catch (const rr::DecodeError&) {
  }
  try {
    const auto m = rr::decode_pb<Message>(input);
    const auto again = rr::decode_pb<Message>(rr::encode_pb(m));
    // NaN is the one value not equal to itself.
    if (!(again == m) && !(m.ratio && *m.ratio != *m.ratio)) std::abort();
  } catch (const rr::DecodeError&) {
  }
  try {
    // As Go's JSON sees a decoded object (KindCodec::pb_to_json): no empty optional string is left,
    // and what is left survives a round trip.
    const auto m = rr::decode_pb<Message>(input, /*omit_empty_strings=*/true);
    if (m.name && m.name->empty()) std::abort();
    const auto again = rr::decode_pb<Message>(rr::encode_pb(m), true);
    if (!(again == m) && !(m.ratio && *m.ratio != *m.ratio)) std::abort();
  } catch (const rr::DecodeError&) {
  }
  return 0;
}
