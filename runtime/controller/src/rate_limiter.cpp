#include "rr/controller/rate_limiter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <unordered_map>

#include "object_key_hash.hpp"

namespace rr {
namespace {

using duration = Clock::duration;

class ItemExponentialFailureRateLimiter final : public RateLimiter {
 public:
  ItemExponentialFailureRateLimiter(duration base, duration max) : base_(base), max_(max) {}

  duration when(const ObjectKey& key) override {
    int exp = 0;
    {
      std::lock_guard guard(mutex_);
      exp = failures_[key]++;
    }
    // Computed in floating point and capped, as client-go, so large exponents cannot overflow.
    const double backoff = static_cast<double>(base_.count()) * std::pow(2.0, exp);
    if (backoff >= static_cast<double>(max_.count())) return max_;
    return duration(static_cast<duration::rep>(backoff));
  }
  void forget(const ObjectKey& key) override {
    std::lock_guard guard(mutex_);
    failures_.erase(key);
  }
  int num_requeues(const ObjectKey& key) override {
    std::lock_guard guard(mutex_);
    auto it = failures_.find(key);
    return it == failures_.end() ? 0 : it->second;
  }

 private:
  const duration base_, max_;
  std::mutex mutex_;
  std::unordered_map<ObjectKey, int, ObjectKeyHash> failures_;
};

// golang.org/x/time/rate's Limiter.Reserve().Delay(): tokens may go negative, and the delay is
// the time the bucket needs to get back to zero.
class BucketRateLimiter final : public RateLimiter {
 public:
  BucketRateLimiter(double qps, int burst, const Clock& clock)
      : qps_(qps), burst_(burst), clock_(clock), tokens_(burst), last_(clock.now()) {}

  duration when(const ObjectKey&) override {
    std::lock_guard guard(mutex_);
    const Clock::time_point now = clock_.now();
    if (now > last_) {
      const double elapsed = std::chrono::duration<double>(now - last_).count();
      tokens_ = std::min(static_cast<double>(burst_), tokens_ + elapsed * qps_);
      last_ = now;
    }
    tokens_ -= 1;
    if (tokens_ >= 0) return duration::zero();
    return std::chrono::duration_cast<duration>(std::chrono::duration<double>(-tokens_ / qps_));
  }
  void forget(const ObjectKey&) override {}
  int num_requeues(const ObjectKey&) override { return 0; }

 private:
  const double qps_;
  const int burst_;
  const Clock& clock_;
  std::mutex mutex_;
  double tokens_;
  Clock::time_point last_;
};

class MaxOfRateLimiter final : public RateLimiter {
 public:
  explicit MaxOfRateLimiter(std::vector<std::unique_ptr<RateLimiter>> limiters) : limiters_(std::move(limiters)) {}

  duration when(const ObjectKey& key) override {
    duration longest = duration::zero();
    for (auto& limiter : limiters_) longest = std::max(longest, limiter->when(key));  // every member counts the failure
    return longest;
  }
  void forget(const ObjectKey& key) override {
    for (auto& limiter : limiters_) limiter->forget(key);
  }
  int num_requeues(const ObjectKey& key) override {
    int most = 0;
    for (auto& limiter : limiters_) most = std::max(most, limiter->num_requeues(key));
    return most;
  }

 private:
  std::vector<std::unique_ptr<RateLimiter>> limiters_;
};

}  // namespace

std::unique_ptr<RateLimiter> make_item_exponential_failure_rate_limiter(duration base, duration max) {
  return std::make_unique<ItemExponentialFailureRateLimiter>(base, max);
}

std::unique_ptr<RateLimiter> make_bucket_rate_limiter(double qps, int burst, const Clock& clock) {
  return std::make_unique<BucketRateLimiter>(qps, burst, clock);
}

std::unique_ptr<RateLimiter> make_max_of_rate_limiter(std::vector<std::unique_ptr<RateLimiter>> limiters) {
  return std::make_unique<MaxOfRateLimiter>(std::move(limiters));
}

std::unique_ptr<RateLimiter> make_default_controller_rate_limiter(const Clock& clock) {
  using namespace std::chrono_literals;
  std::vector<std::unique_ptr<RateLimiter>> limiters;
  limiters.push_back(make_item_exponential_failure_rate_limiter(5ms, 1000s));
  limiters.push_back(make_bucket_rate_limiter(10, 100, clock));
  return make_max_of_rate_limiter(std::move(limiters));
}

}  // namespace rr
