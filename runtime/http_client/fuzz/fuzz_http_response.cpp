// What rr::HttpClient reads from the network: watch streams (newline-delimited JSON events, cut
// into arbitrary chunks), error bodies (metav1.Status or anything else) and Retry-After values.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "response_error.hpp"
#include "watch_events.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  // The first byte picks the chunk size, so event boundaries fall anywhere in a chunk.
  const std::size_t chunk = 1 + data[0] % 64;
  const std::string_view body(reinterpret_cast<const char*>(data + 1), size - 1);

  rr::http_detail::WatchEventQueue queue;
  for (std::size_t at = 0; at < body.size(); at += chunk) {
    if (!queue.feed(body.substr(at, chunk))) break;
  }
  queue.finish();
  while (queue.next(std::chrono::milliseconds(0))) {
  }

  const long code = 400 + static_cast<long>(data[0] % 200);
  (void)rr::http_detail::status_from_response(code, body, rr::http_detail::parse_retry_after(body.substr(0, 16)));
  return 0;
}
