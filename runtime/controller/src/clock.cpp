#include "rr/controller/clock.hpp"

#include "rr/controller/fake_clock.hpp"

namespace rr {
namespace {

class RealClock final : public Clock {
 public:
  time_point now() const override { return std::chrono::steady_clock::now(); }
  void wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock, time_point deadline) const override {
    cv.wait_until(lock, deadline);
  }
  // Real time never jumps, so nobody needs waking.
  void add_waker(const void*, std::function<void()>) override {}
  void remove_waker(const void*) override {}
};

}  // namespace

Clock& Clock::real() {
  static RealClock clock;
  return clock;
}

void FakeClock::wait_until(std::condition_variable& cv, std::unique_lock<std::mutex>& lock, time_point deadline) const {
  // No timed wait: only advance() moves this clock, and it wakes the owner through its waker.
  if (now() < deadline) cv.wait(lock);
}

void FakeClock::add_waker(const void* owner, std::function<void()> wake) {
  std::lock_guard guard(wakers_mutex_);
  wakers_[owner] = std::move(wake);
}

void FakeClock::remove_waker(const void* owner) {
  std::lock_guard guard(wakers_mutex_);
  wakers_.erase(owner);
}

void FakeClock::advance(duration d) {
  std::lock_guard guard(wakers_mutex_);
  now_.fetch_add(d.count());
  for (auto& [owner, wake] : wakers_) wake();
}

}  // namespace rr
