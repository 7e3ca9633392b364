// libFuzzer target: yaml_to_json on arbitrary bytes either returns JSON that parses or throws
// YamlError; it never crashes, and deep nesting is refused before the stack runs out.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "yaml_to_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const std::string json = rr::roundtrip::yaml_to_json(std::string_view(reinterpret_cast<const char*>(data), size));
    (void)nlohmann::json::parse(json);  // throws (and so crashes the fuzzer) if the output is not JSON
  } catch (const rr::roundtrip::YamlError&) {
  }
  return 0;
}
