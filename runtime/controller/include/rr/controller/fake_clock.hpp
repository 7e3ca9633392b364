// A Clock that only moves when a test calls advance(). Waiters blocked in wait_until() are woken
// through the wakers their owners registered, so a delayed item becomes ready without real sleep.
#pragma once
#include <atomic>
#include <map>

#include "rr/controller/clock.hpp"

namespace rr {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(time_point start = time_point{} + std::chrono::hours(1)) : now_(start.time_since_epoch().count()) {}

  time_point now() const override { return time_point(duration(now_.load())); }
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock, time_point deadline) const override;
  void add_waker(const void* owner, std::function<void()> wake) override;
  void remove_waker(const void* owner) override;

  // Moves time forward by `d` and runs every waker.
  void advance(duration d);

 private:
  // Atomic, so now() takes no lock: callers read it under their own locks, which the wakers also
  // take while advance() holds wakers_mutex_.
  std::atomic<duration::rep> now_;
  std::mutex wakers_mutex_;
  std::map<const void*, std::function<void()>> wakers_;
};

}  // namespace rr
