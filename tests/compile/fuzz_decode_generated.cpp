// libFuzzer target: arbitrary bytes decoded as a generated type (schemas/gadgets.yaml, which has
// one member of every construct). Anything that decodes must re-encode to text that decodes to an
// equal value; validate() and apply_defaults() must not crash. Decode errors are expected.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gadgets_types.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  bt::v1::Gadget g;
  try {
    g = bt::v1::Gadget::from_json_text(text);
  } catch (const rr::DecodeError&) {
    return 0;
  }
  const std::string once = g.to_json_text();
  const bt::v1::Gadget again = bt::v1::Gadget::from_json_text(once);  // must not throw
  if (!(again == g) || again.to_json_text() != once) std::abort();
  (void)g.validate();
  g.apply_defaults();
  (void)g.validate();
  return 0;
}
