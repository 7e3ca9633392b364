// libFuzzer target for what reads a Certificate's spec (a Certificate object as JSON; its
// durations go through rr::parse_go_duration). The reader never throws: a spec or an error,
// never neither.
//
//   fuzz_certificate_spec -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rr/cert_manager/certificate_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const rr::Json object = rr::Json::parse(input, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded()) return 0;
  const auto result = rr::cert_manager::read_certificate_spec(object);
  if (result.spec.has_value() == !result.error.empty()) __builtin_trap();
  return 0;
}
