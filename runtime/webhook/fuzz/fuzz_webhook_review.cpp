// libFuzzer target for the review decoders: the bytes are decoded as each of the four reviews.
// Decoding may only throw rr::webhook::ReviewError; whatever decodes must survive being encoded
// and decoded again unchanged.
//
//   fuzz_webhook_review -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/webhook/admission_review.hpp"
#include "rr/webhook/conversion_review.hpp"

namespace {

template <class Decode, class Encode>
void round_trip(std::string_view input, Decode decode, Encode encode) {
  try {
    const auto decoded = decode(input);
    if (decode(encode(decoded)) != decoded) std::abort();
  } catch (const rr::webhook::ReviewError&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  using namespace rr::webhook;
  round_trip(input, decode_admission_review_request, encode_admission_review_request);
  round_trip(input, decode_admission_review_response, encode_admission_review_response);
  round_trip(input, decode_conversion_review_request, encode_conversion_review_request);
  round_trip(input, decode_conversion_review_response, encode_conversion_review_response);
  return 0;
}
