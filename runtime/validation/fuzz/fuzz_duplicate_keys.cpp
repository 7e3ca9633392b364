// libFuzzer target for the duplicate-key detectors of request bodies: any text, read as JSON and as
// YAML, must come back without crashing; JSON written by our own writer (which cannot repeat a
// member) must show no duplicate, and a member written twice into an object must show one.
//
//   fuzz_duplicate_keys -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/validation/decoding.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)rr::validation::duplicate_json_fields(text);
  (void)rr::validation::duplicate_yaml_keys(text);
  const rr::Json parsed = rr::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return 0;
  const std::string dumped = parsed.dump();
  if (!rr::validation::duplicate_json_fields(dumped).empty()) std::abort();
  if (parsed.is_object() && !parsed.empty()) {
    // {"k": v, <the object's members>}: the first key now appears twice at the top.
    const std::string first = rr::Json(parsed.begin().key()).dump();
    const std::string twice = "{" + first + ":null," + dumped.substr(1);
    if (rr::validation::duplicate_json_fields(twice).empty()) std::abort();
  }
  return 0;
}
