#include "retry.hpp"

#include <algorithm>

namespace rr::http_detail {
namespace {

std::chrono::milliseconds backoff(const RetryPolicy& policy, int retry) {
  auto delay = policy.initial_backoff;
  for (int i = 1; i < retry && delay < policy.max_backoff; ++i) delay *= 2;
  return std::min(delay, policy.max_backoff);
}

}  // namespace

std::optional<std::chrono::milliseconds> retry_delay(const RetryPolicy& policy, std::string_view method,
                                                     const AttemptOutcome& outcome, int retry) {
  if (retry > policy.max_retries) return std::nullopt;
  const bool get = method == "GET";
  if (outcome.http_code == 0) {
    if (outcome.connection_failed && get) return backoff(policy, retry);
    return std::nullopt;
  }
  const bool throttled = outcome.http_code == 429;
  const bool server_error = outcome.http_code >= 500 && outcome.http_code <= 599;
  if (!throttled && !server_error) return std::nullopt;
  if (outcome.retry_after) {
    return std::min<std::chrono::milliseconds>(std::chrono::seconds(*outcome.retry_after), policy.max_retry_after);
  }
  if (throttled || get) return backoff(policy, retry);
  return std::nullopt;
}

}  // namespace rr::http_detail
