#include "async_event_recorder.hpp"

#include <string>
#include <utility>

#include "rr/reconcilers/error.hpp"

namespace rr::controller_detail {

AsyncEventRecorder::AsyncEventRecorder(std::shared_ptr<EventRecorder> inner, Logger log, std::size_t capacity)
    : inner_(std::move(inner)), log_(std::move(log)), capacity_(capacity > 0 ? capacity : 1),
      writer_([this] { write_loop(); }) {}

AsyncEventRecorder::~AsyncEventRecorder() { close(std::chrono::steady_clock::duration::zero()); }

void AsyncEventRecorder::record(const Event& event) {
  bool warn = false;
  {
    const std::lock_guard lock(mutex_);
    if (closing_) {
      ++dropped_;
      return;
    }
    if (queue_.size() >= capacity_) {
      ++dropped_;
      warn = !std::exchange(warned_full_, true);
    } else {
      queue_.push_back(event);
      warned_full_ = false;
    }
  }
  if (warn) {
    log_.with("capacity", std::to_string(capacity_))
        .info("event queue full, dropping events until the writer catches up");
  }
  changed_.notify_one();
}

void AsyncEventRecorder::close(std::chrono::steady_clock::duration grace) {
  {
    const std::lock_guard lock(mutex_);
    if (!closing_) {
      closing_ = true;
      deadline_ = std::chrono::steady_clock::now() + grace;
    }
  }
  changed_.notify_one();
  const std::lock_guard join_lock(join_mutex_);  // two closers: the second waits for the first's join
  if (writer_.joinable()) writer_.join();
}

std::size_t AsyncEventRecorder::dropped() const {
  const std::lock_guard lock(mutex_);
  return dropped_;
}

void AsyncEventRecorder::write_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return closing_ || !queue_.empty(); });
    if (closing_ && (queue_.empty() || std::chrono::steady_clock::now() >= deadline_)) break;
    Event event = std::move(queue_.front());
    queue_.pop_front();
    lock.unlock();
    try {
      inner_->record(event);  // the client recorder logs a failed write itself
    } catch (...) {
      log_.error(Error::from_current_exception(), "unable to record event " + event.reason);
    }
    lock.lock();
  }
  const std::size_t left = queue_.size();
  dropped_ += left;
  queue_.clear();
  lock.unlock();
  if (left > 0) {
    log_.with("events", std::to_string(left)).info("dropped the events not written within the grace period");
  }
}

}  // namespace rr::controller_detail
