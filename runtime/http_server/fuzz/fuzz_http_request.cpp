// Fuzzes what the HTTP server (the manager's /metrics and probes, the webhook server) reads off a socket: request heads
// one after another (pipelined), under the default limits and small ones, and each target's split. Any input must end
// in complete, incomplete or an error status, with consumed bytes inside the input, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "rr/http_server/request.hpp"

namespace {

void parse_all(std::string_view input, const rr::http_server::RequestLimits& limits) {
  using namespace rr::http_server;
  while (true) {
    const HeadResult head = parse_request_head(input, limits);
    if (head.status == HeadStatus::incomplete) return;
    if (head.status == HeadStatus::error) {
      const int s = head.error_status;
      if (s != 400 && s != 414 && s != 431 && s != 505) __builtin_trap();
      return;
    }
    if (head.consumed == 0 || head.consumed > input.size() || head.consumed > limits.max_head) __builtin_trap();
    if (head.request.fields.size() > limits.max_fields) __builtin_trap();
    if (const auto target = split_target(head.request.target)) {
      if (target->path.empty()) __builtin_trap();
      (void)target->param_values("exclude");
    }
    input.remove_prefix(head.consumed);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  parse_all(input, {});
  parse_all(input, {.max_request_line = 32, .max_head = 96, .max_fields = 3});
  (void)rr::http_server::split_target(input);
  return 0;
}
