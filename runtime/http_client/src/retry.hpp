// Whether and when a failed attempt is tried again (docs/runtime/20-http-client.md, "Retries").
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "rr/http_client/http_client.hpp"

namespace rr::http_detail {

// What one attempt ended with.
struct AttemptOutcome {
  long http_code = 0;                       // 0: no HTTP answer
  std::optional<std::int32_t> retry_after;  // the Retry-After header, seconds
  bool connection_failed = false;           // connect/reset/EOF before an answer (not a timeout)
};

// The wait before retry number `retry` (1-based), or nullopt when the attempt is final:
// - 429 or 5xx with Retry-After: any method (client-go's checkWait), waiting Retry-After (capped);
// - 429 without Retry-After: any method (the server refused the request unprocessed), backoff;
// - 5xx without Retry-After, or a connection failure: GET only (a write may have been applied), backoff;
// - at most policy.max_retries retries.
std::optional<std::chrono::milliseconds> retry_delay(const RetryPolicy& policy, std::string_view method,
                                                     const AttemptOutcome& outcome, int retry);

}  // namespace rr::http_detail
