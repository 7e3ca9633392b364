// Helpers shared by the work-queue tests.
#pragma once
#include <chrono>
#include <future>

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

}  // namespace rr::test
