// The clock the work queue and rate limiters read. Injectable so that tests of delays advance
// time by hand (FakeClock) instead of sleeping.
#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>

namespace rr {

class Clock {
 public:
  using duration = std::chrono::steady_clock::duration;
  using time_point = std::chrono::steady_clock::time_point;

  virtual ~Clock() = default;
  virtual time_point now() const = 0;

  // Blocks on `cv` (with `lock` held on entry and on return) until it is notified or this clock
  // reaches `deadline`. May return early (spurious wake-up): callers re-check their state.
  virtual void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock,
                          time_point deadline) const = 0;

  // A clock whose time jumps (FakeClock) calls every registered `wake` after each jump, so that
  // waiters re-check their deadlines. `wake` may take the owner's lock: a clock never calls it
  // from inside now() or wait_until(). The real clock never calls it.
  virtual void add_waker(const void* owner, std::function<void()> wake) = 0;
  virtual void remove_waker(const void* owner) = 0;

  // std::chrono::steady_clock.
  static Clock& real();
};

}  // namespace rr
