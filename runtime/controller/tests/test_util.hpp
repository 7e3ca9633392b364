// Helpers shared by the controller layer's tests.
#pragma once
#include <chrono>
#include <functional>
#include <future>
#include <thread>

#include "rr/controller/fake_clock.hpp"
#include "rr/controller/work_queue.hpp"

namespace rr::test {

inline ObjectKey key(const char* name) { return ObjectKey{"default", name}; }

// A queue on a fake clock; its rate limiter is the default controller one on the same clock.
inline WorkQueueOptions on(FakeClock& clock) {
  WorkQueueOptions options;
  options.clock = &clock;
  return options;
}

// True when `f` finishes within `limit` of real time (used to show a call blocks or is woken).
template <class T>
bool finishes_within(std::future<T>& f, std::chrono::milliseconds limit) {
  return f.wait_for(limit) == std::future_status::ready;
}

// Polls `pred` until it holds or `limit` passes.
inline bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds limit = std::chrono::seconds(5)) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return pred();
}

}  // namespace rr::test
