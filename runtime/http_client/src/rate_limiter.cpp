#include "rate_limiter.hpp"

#include <algorithm>
#include <thread>

namespace rr::http_detail {

RateLimiter::RateLimiter(double qps, int burst)
    : qps_(qps), burst_(std::max(1, burst)), tokens_(burst_), last_(clock::now()) {}

RateLimiter::clock::duration RateLimiter::reserve(clock::time_point now) {
  if (qps_ <= 0) return clock::duration::zero();
  std::lock_guard lock(mutex_);
  if (now > last_) {
    const std::chrono::duration<double> elapsed = now - last_;
    tokens_ = std::min(burst_, tokens_ + elapsed.count() * qps_);
    last_ = now;
  }
  // Tokens may go negative: each waiter reserves its slot, so later callers wait longer.
  tokens_ -= 1.0;
  if (tokens_ >= 0) return clock::duration::zero();
  return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(-tokens_ / qps_));
}

RateLimiter::clock::duration RateLimiter::acquire() {
  const clock::time_point start = clock::now();
  const clock::duration wait = reserve(start);
  if (wait <= clock::duration::zero()) return clock::duration::zero();
  std::this_thread::sleep_for(wait);
  return clock::now() - start;
}

}  // namespace rr::http_detail
