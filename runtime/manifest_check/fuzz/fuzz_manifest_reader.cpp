// libFuzzer target for rr::manifest_check's reader: any bytes of a user's manifest file, read as
// YAML and as JSON, must give documents or a syntax error with a position, never a crash or an
// exception; every document read is a JSON value that dumps.
//
//   fuzz_manifest_reader -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/manifest_check/manifest_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool json : {false, true}) {
    const auto read = rr::manifest_check::read_manifests(text, json);
    std::size_t index = 0;
    for (const auto& doc : read.documents) {
      if (doc.index != ++index || doc.line == 0) std::abort();  // numbered in order, with a line
      (void)doc.object.dump(-1, ' ', false, rr::Json::error_handler_t::replace);
    }
    if (read.error && read.error->message.empty()) std::abort();
  }
  return 0;
}
