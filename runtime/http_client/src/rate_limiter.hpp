// Client-side rate limiting: a token bucket of `burst` tokens refilled at `qps` per second
// (client-go's flowcontrol.NewTokenBucketRateLimiter). qps <= 0 disables it.
#pragma once
#include <chrono>
#include <mutex>

namespace rr::http_detail {

class RateLimiter {
 public:
  using clock = std::chrono::steady_clock;
  RateLimiter(double qps, int burst);
  // Blocks until a token is available, and returns how long it waited. Waiters are served in
  // order of their reservation.
  clock::duration acquire();
  // The wait acquire() would need now, reserving the token (exposed for tests).
  clock::duration reserve(clock::time_point now);

 private:
  const double qps_;
  const double burst_;
  std::mutex mutex_;
  double tokens_;
  clock::time_point last_;
};

}  // namespace rr::http_detail
