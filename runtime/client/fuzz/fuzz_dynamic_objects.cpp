// libFuzzer target for the codecs of the objects whose kind is known at run time (rr::Unstructured,
// rr::ConditionsDuck): what an API server sends them. Arbitrary JSON must never crash them; a
// document they reject throws a std::exception. Whatever decodes must encode to a document that
// decodes to an equal object and encodes the same again (nothing lost or invented by a round trip).
//
//   fuzz_dynamic_objects -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <string_view>

#include "rr/client/duck.hpp"
#include "rr/client/unstructured.hpp"
#include "rr/core/json.hpp"

namespace {

[[noreturn]] void die(const char* why) {
  (void)why;
  std::abort();
}

template <class T>
void check_round_trip(const rr::Json& document) {
  T decoded;
  try {
    decoded = document.get<T>();
  } catch (const std::exception&) {
    return;
  }
  const rr::Json encoded = decoded;
  T again;
  try {
    again = encoded.get<T>();
  } catch (const std::exception&) {
    die("an encoded object does not decode");
  }
  if (!(again == decoded)) die("a round trip changed the object");
  if (rr::Json(again) != encoded) die("encoding is not stable");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  rr::Json document;
  try {
    document = rr::Json::parse(text);
  } catch (const std::exception&) {
    return 0;
  }
  check_round_trip<rr::Unstructured>(document);
  check_round_trip<rr::ConditionsDuck>(document);
  return 0;
}
