// libFuzzer target: arbitrary bytes as a container image reference (the spec's `image:`) and as a
// digest (`rrgen pin-image --digest`). Property: what parses prints back to the same text, and the
// digest it keeps is one is_valid_digest accepts.
#include <cstddef>
#include <cstdint>
#include <string>

#include "support/image_reference.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  const std::string text(reinterpret_cast<const char*>(data), size);
  (void)is_valid_digest(text);
  std::string error;
  const std::optional<ImageReference> ref = parse_image_reference(text, error);
  if (!ref) {
    if (error.empty()) __builtin_trap();  // a refusal always says why
    return 0;
  }
  if (image_string(*ref) != text || ref->name.empty()) __builtin_trap();
  if (!ref->digest.empty() && !is_valid_digest(ref->digest)) __builtin_trap();
  return 0;
}
