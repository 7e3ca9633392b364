// Events written off the reconcile path, as client-go's event broadcaster writes them: record()
// queues the event and returns at once; one thread writes the queue, in order, through the inner
// recorder (which aggregates repeats). A write that waits (a 429's Retry-After, a slow server)
// then holds up no reconcile, and workers never queue up behind one another's events.
//
// The queue is bounded (client-go: 1000 events); a full queue drops the event and counts it, as
// client-go drops events rather than block a controller. close() stops taking events and gives
// the queue a grace period to be written; what is left after it is dropped.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/logger.hpp"

namespace rr::controller_detail {

class AsyncEventRecorder final : public EventRecorder {
 public:
  static constexpr std::size_t default_capacity = 1000;

  AsyncEventRecorder(std::shared_ptr<EventRecorder> inner, Logger log, std::size_t capacity = default_capacity);
  // close() with no grace: the write in progress finishes, the queued events are dropped.
  ~AsyncEventRecorder() override;
  AsyncEventRecorder(const AsyncEventRecorder&) = delete;
  AsyncEventRecorder& operator=(const AsyncEventRecorder&) = delete;

  // Queues the event; never blocks on a write. After close() the event is dropped.
  void record(const Event& event) override;

  // Stops taking events, writes the queued ones until `grace` has passed, drops the rest and
  // joins the writer (after the write in progress). Idempotent.
  void close(std::chrono::steady_clock::duration grace);

  // Events dropped so far: the queue was full, or recorded after close, or left at close.
  std::size_t dropped() const;

 private:
  void write_loop();

  std::shared_ptr<EventRecorder> inner_;
  Logger log_;
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Event> queue_;
  bool closing_ = false;
  std::chrono::steady_clock::time_point deadline_{};
  std::size_t dropped_ = 0;
  bool warned_full_ = false;
  std::mutex join_mutex_;
  std::thread writer_;  // last: started once the members it reads exist
};

}  // namespace rr::controller_detail
