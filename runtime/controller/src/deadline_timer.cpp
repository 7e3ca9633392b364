#include "deadline_timer.hpp"

namespace rr::controller_detail {

DeadlineTimer::DeadlineTimer(Clock& clock) : clock_(clock) {
  clock_.add_waker(this, [this] {
    std::lock_guard lock(mutex_);
    cv_.notify_all();
  });
  thread_ = std::thread([this] { run(); });
}

DeadlineTimer::~DeadlineTimer() {
  clock_.remove_waker(this);
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

std::uint64_t DeadlineTimer::schedule(Clock::time_point deadline, std::stop_source source) {
  std::lock_guard lock(mutex_);
  const std::uint64_t id = next_id_++;
  pending_.emplace(id, Pending{deadline, std::move(source)});
  cv_.notify_all();
  return id;
}

bool DeadlineTimer::cancel(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  return pending_.erase(id) > 0;
}

void DeadlineTimer::run() {
  std::unique_lock lock(mutex_);
  while (!done_) {
    const Clock::time_point now = clock_.now();
    std::optional<Clock::time_point> next;
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.deadline <= now) {
        it->second.source.request_stop();  // runs the reconcile's stop callbacks, which only wake it
        it = pending_.erase(it);
        continue;
      }
      if (!next || it->second.deadline < *next) next = it->second.deadline;
      ++it;
    }
    if (next) {
      clock_.wait_until(cv_, lock, *next);
    } else {
      cv_.wait(lock);
    }
  }
}

}  // namespace rr::controller_detail
