// The controller's work queue, with client-go's util/workqueue semantics (classic queue +
// delaying queue + rate-limiting queue in one type). See docs/runtime/15-work-queue.md.
//
//   while (auto key = queue.get()) {        // blocks; nullopt once shut down and drained
//     try { reconcile(*key); queue.forget(*key); } catch (...) { queue.add_rate_limited(*key); }
//     queue.done(*key);                     // always, or the key is never handed out again
//   }
#pragma once
#include <cstddef>
#include <memory>
#include <optional>

#include "rr/client/object_key.hpp"
#include "rr/controller/clock.hpp"
#include "rr/controller/rate_limiter.hpp"
#include "rr/controller/work_queue_metrics.hpp"

namespace rr {

struct WorkQueueOptions {
  Clock* clock = nullptr;                        // nullptr: Clock::real(). Must outlive the queue.
  std::unique_ptr<RateLimiter> rate_limiter;     // nullptr: make_default_controller_rate_limiter(*clock)
  std::shared_ptr<WorkQueueMetrics> metrics;     // nullptr: no metrics
};

// Thread-safe. A key is queued at most once, and is never handed to two workers at once: a key
// added while it is being processed is marked dirty and queued again by done().
class WorkQueue {
 public:
  explicit WorkQueue(WorkQueueOptions options = {});
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // Queues `key` unless it is already queued; if it is being processed, it is queued again when
  // done(key) is called. Ignored after shutdown.
  void add(const ObjectKey& key);
  // add(key) once `delay` has passed (now if delay <= 0). If the key is already waiting, the
  // earlier ready time wins. Waiting keys are dropped at shutdown.
  void add_after(const ObjectKey& key, Clock::duration delay);
  // add_after(key, rate_limiter.when(key)); counts a retry.
  void add_rate_limited(const ObjectKey& key);
  void forget(const ObjectKey& key);
  int num_requeues(const ObjectKey& key);

  // Blocks until a key is ready, and marks it as being processed. nullopt once the queue is shut
  // down and no key is left queued.
  std::optional<ObjectKey> get();
  // The worker finished `key`; the key is queued again if it was added meanwhile.
  void done(const ObjectKey& key);

  // Keys ready to be handed out (not those being processed, nor those still waiting on a delay).
  std::size_t len();

  // Stops accepting keys and wakes every get(); keys already queued are still handed out.
  void shut_down();
  // shut_down(), then waits until every key handed out by get() is done().
  void shut_down_with_drain();
  bool shutting_down();

  // Reports workqueue_unfinished_work_seconds and workqueue_longest_running_processor_seconds.
  // client-go does this every 500 ms from a goroutine; here the owner calls it (e.g. on scrape).
  void update_unfinished_work();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace rr
