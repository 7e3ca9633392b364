// Rate limiters of the work queue, as client-go's util/workqueue: how long to wait before an item
// that failed is handed out again.
#pragma once
#include <memory>
#include <vector>

#include "rr/client/object_key.hpp"
#include "rr/controller/clock.hpp"

namespace rr {

// Implementations are thread-safe: one limiter is shared by every worker of a queue.
class RateLimiter {
 public:
  virtual ~RateLimiter() = default;
  // The delay before `key` may be processed again; counts one more failure of `key`.
  virtual Clock::duration when(const ObjectKey& key) = 0;
  // Clears the failure history of `key` (call after it was processed successfully).
  virtual void forget(const ObjectKey& key) = 0;
  // How many times `key` was requeued since it was last forgotten.
  virtual int num_requeues(const ObjectKey& key) = 0;
};

// base · 2^failures, capped at max, counted per key.
std::unique_ptr<RateLimiter> make_item_exponential_failure_rate_limiter(Clock::duration base, Clock::duration max);

// A token bucket shared by all keys: `burst` immediate tokens, refilled at `qps` per second.
// Each when() takes a token; once the bucket is empty the delays grow by 1/qps per call.
std::unique_ptr<RateLimiter> make_bucket_rate_limiter(double qps, int burst, const Clock& clock = Clock::real());

// The largest delay of its members; forget() forgets in all of them.
std::unique_ptr<RateLimiter> make_max_of_rate_limiter(std::vector<std::unique_ptr<RateLimiter>> limiters);

// client-go's DefaultControllerRateLimiter:
// MaxOf(ItemExponentialFailure(5 ms, 1000 s), Bucket(10 qps, burst 100)).
std::unique_ptr<RateLimiter> make_default_controller_rate_limiter(const Clock& clock = Clock::real());

}  // namespace rr
