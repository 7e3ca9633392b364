// Fires stop sources at deadlines, on one thread per controller: how a reconcile's stop token
// learns that ControllerOptions::reconcile_timeout has passed (Go's context.WithTimeout).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <stop_token>
#include <thread>

#include "rr/controller/clock.hpp"

namespace rr::controller_detail {

class DeadlineTimer {
 public:
  explicit DeadlineTimer(Clock& clock);
  ~DeadlineTimer();
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;

  // Requests stop on `source` once `clock` reaches `deadline`, unless cancel(id) comes first.
  std::uint64_t schedule(Clock::time_point deadline, std::stop_source source);
  // False when the deadline had already fired.
  bool cancel(std::uint64_t id);

 private:
  struct Pending {
    Clock::time_point deadline;
    std::stop_source source;
  };
  void run();

  Clock& clock_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::map<std::uint64_t, Pending> pending_;  // one per reconcile in flight: a scan is cheap
  std::uint64_t next_id_ = 0;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace rr::controller_detail
