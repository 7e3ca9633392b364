// libFuzzer target for the Go scalar decoders of a built-in kind's strings: the first byte picks
// the reader (0: RFC 3339 time, 1: RFC 3339 micro time, 2: base64), the rest is the value. Any
// bytes must be read without crashing, deterministically, and what is accepted has the shape the
// reader requires.
//
//   fuzz_go_scalars -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_go_scalars/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "go_scalars.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rr::validation::detail;
  if (size == 0) return 0;
  const std::string_view value(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 3) {
    case 0:
    case 1: {
      const std::string_view layout = data[0] % 3 == 0 ? kRfc3339 : kRfc3339Micro;
      const auto error = go_time_parse_error(layout, value);
      if (error != go_time_parse_error(layout, value)) std::abort();
      // Accepted: at least "2006-01-02T1:04:05Z" (one hour digit), with the micro fraction when asked.
      if (!error && (value.size() < 19 || (layout == kRfc3339Micro && value.size() < 26))) std::abort();
      if (error && !error->starts_with("parsing time \"")) std::abort();
      break;
    }
    default: {
      const auto error = go_base64_error(value);
      if (error != go_base64_error(value)) std::abort();
      std::size_t significant = 0;
      for (const char c : value) significant += c != '\n' && c != '\r';
      if (!error && significant % 4 != 0) std::abort();  // padded: whole quanta only
      break;
    }
  }
  return 0;
}
