// libFuzzer target for the ordered writer: the input is a JSON document (tried as it is, and as a
// Pod, a PodList item and a Status body so that the struct walk runs). Nothing may crash, and the
// ordered text must read back to the same document that dump() writes (only the order differs).
//
//   fuzz_go_order -max_total_time=60 corpus_dir/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "rr/wire_order/go_order.hpp"

namespace {

void check(const rr::Json& document) {
  std::string ordered;
  try {
    ordered = rr::wire_order::dump(document);
  } catch (const rr::Json::type_error&) {
    return;  // not UTF-8: dump() refuses it too
  }
  if (rr::Json::parse(ordered) != document) std::abort();
  if (ordered.size() != document.dump().size()) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const rr::Json document = rr::Json::parse(data, data + size, nullptr, false);
  if (document.is_discarded()) return 0;
  check(document);
  check(rr::Json{{"apiVersion", "v1"}, {"kind", "Pod"}, {"spec", document}, {"metadata", document}});
  check(rr::Json{{"apiVersion", "v1"}, {"kind", "PodList"}, {"items", rr::Json::array({document})}});
  check(rr::Json{{"apiVersion", "v1"}, {"kind", "Status"}, {"details", document}});
  return 0;
}
