// libFuzzer target for rr::yaml's reader: any bytes of a request body or a manifest file must give
// documents or an error with a position and go-yaml's text, never a crash, an exception or a
// parse that does not end (yaml-cpp's did on an 80-byte input); every document dumps as JSON.
//
//   fuzz_yaml_reader -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/yaml/reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (bool first_only : {false, true}) {
    const auto read = rr::yaml::read(text, first_only);
    std::size_t index = 0;
    for (const auto& doc : read.documents) {
      if (doc.index != ++index || doc.line == 0) std::abort();  // numbered in order, with a line
      for (const auto& dup : doc.duplicates) {
        if (dup.line == 0 || dup.field.empty()) std::abort();
      }
      (void)doc.value.dump(-1, ' ', false, rr::Json::error_handler_t::replace);
    }
    if (first_only && read.documents.size() > 1) std::abort();
    if (read.error && (read.error->message.empty() || read.error->go_text.rfind("yaml: ", 0) != 0)) std::abort();
  }
  return 0;
}
