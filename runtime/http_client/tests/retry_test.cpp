#include <doctest/doctest.h>

#include "retry.hpp"

using namespace rr::http_detail;
using std::chrono::milliseconds;

namespace {
rr::RetryPolicy policy() {
  rr::RetryPolicy p;
  p.max_retries = 3;
  p.initial_backoff = milliseconds(100);
  p.max_backoff = milliseconds(350);
  p.max_retry_after = milliseconds(2000);
  return p;
}
AttemptOutcome answered(long code, std::optional<std::int32_t> retry_after = std::nullopt) {
  return {code, retry_after, false};
}
}  // namespace

TEST_CASE("Retry-After on 429 and 5xx: any method, the server's delay, capped") {
  CHECK(retry_delay(policy(), "POST", answered(429, 1), 1) == milliseconds(1000));
  CHECK(retry_delay(policy(), "PATCH", answered(503, 1), 1) == milliseconds(1000));
  CHECK(retry_delay(policy(), "GET", answered(500, 60), 1) == milliseconds(2000));
  CHECK(retry_delay(policy(), "DELETE", answered(429, 0), 1) == milliseconds(0));
}

TEST_CASE("without Retry-After: 429 any method, 5xx only GET, exponential backoff capped") {
  CHECK(retry_delay(policy(), "POST", answered(429), 1) == milliseconds(100));
  CHECK(retry_delay(policy(), "GET", answered(500), 1) == milliseconds(100));
  CHECK(retry_delay(policy(), "GET", answered(502), 2) == milliseconds(200));
  CHECK(retry_delay(policy(), "GET", answered(503), 3) == milliseconds(350));
  CHECK_FALSE(retry_delay(policy(), "POST", answered(500), 1));
  CHECK_FALSE(retry_delay(policy(), "PUT", answered(503), 1));
}

TEST_CASE("other answers are final, retries are bounded") {
  for (long code : {200L, 400L, 401L, 403L, 404L, 409L, 410L, 422L}) {
    CHECK_FALSE(retry_delay(policy(), "GET", answered(code, 1), 1));
  }
  CHECK(retry_delay(policy(), "GET", answered(429, 1), 3));
  CHECK_FALSE(retry_delay(policy(), "GET", answered(429, 1), 4));
  rr::RetryPolicy none = policy();
  none.max_retries = 0;
  CHECK_FALSE(retry_delay(none, "GET", answered(429, 1), 1));
}

TEST_CASE("connection failures: GET only, timeouts and TLS failures never") {
  const AttemptOutcome refused{0, std::nullopt, true};
  const AttemptOutcome timed_out{0, std::nullopt, false};
  CHECK(retry_delay(policy(), "GET", refused, 1) == milliseconds(100));
  CHECK_FALSE(retry_delay(policy(), "POST", refused, 1));
  CHECK_FALSE(retry_delay(policy(), "GET", timed_out, 1));
}
