// libFuzzer target for parse_resource_version (a resourceVersion from a request body or query).
// Any bytes: no crash, no exception; what parses prints back as the same number (leading zeros
// aside), and an error always names the text as Go's %q does.
//
//   fuzz_resource_version -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rr/client/resource_version.hpp"
#include "rr/core/json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const rr::ParsedResourceVersion parsed = rr::parse_resource_version(text);
  if (parsed.error.empty()) {
    std::string_view digits = text;
    while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
    if (!text.empty() && std::to_string(parsed.value) != digits) std::abort();
  } else {
    if (parsed.error.rfind("strconv.ParseUint: parsing \"", 0) != 0) std::abort();
    (void)rr::api_errors::malformed_query_resource_version(text, parsed).to_json();
  }
  return 0;
}
