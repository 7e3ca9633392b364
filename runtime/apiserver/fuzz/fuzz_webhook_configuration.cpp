// Fuzzes what the local cluster makes of a webhook configuration a client writes: its checks and
// defaults, and the compiled webhooks the dispatcher calls. Any JSON must end in findings, webhooks
// or an exception, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "webhook_configuration.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const rr::Json document = rr::Json::parse(input, nullptr, false);
  if (document.is_discarded()) return 0;
  for (const bool mutating : {true, false}) {
    rr::Json configuration = document;
    try {
      (void)rr::apiserver_detail::admit_webhook_configuration(configuration, mutating);
      (void)rr::apiserver_detail::webhooks_of(configuration, mutating);
    } catch (const std::exception&) {
      // Refused as a whole: the schema's type checks run before these on a real write.
    }
  }
  return 0;
}
