// The controller's work queue, with client-go's util/workqueue semantics (classic queue +
// delaying queue + rate-limiting queue in one type), optionally ordered by priority as
// controller-runtime's priorityqueue. See docs/runtime/15-work-queue.md.
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

// The priority of initial-list and resync events (controller-runtime's handler.LowPriority); real
// changes are added at 0.
inline constexpr int kLowPriority = -100;

struct WorkQueueOptions {
  Clock* clock = nullptr;                        // nullptr: Clock::real(). Must outlive the queue.
  std::unique_ptr<RateLimiter> rate_limiter;     // nullptr: make_default_controller_rate_limiter(*clock)
  std::shared_ptr<WorkQueueMetrics> metrics;     // nullptr: no metrics
  // true: ready keys are handed out highest priority first, FIFO within a priority (and the depth
  // metric is reported per priority). false: one FIFO, priorities ignored (client-go's queue).
  bool priorities = false;
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
  // done(key) is called. Ignored after shutdown. A key already queued keeps the higher of its
  // priorities; raised, it goes behind the keys already queued at its new priority (as
  // controller-runtime's priority queue).
  void add(const ObjectKey& key, int priority = 0);
  // add(key, priority) once `delay` has passed (now if delay <= 0). If the key is already waiting,
  // the earlier ready time and the higher priority win. Waiting keys are dropped at shutdown.
  void add_after(const ObjectKey& key, Clock::duration delay, int priority = 0);
  // add_after(key, rate_limiter.when(key), priority); counts a retry.
  void add_rate_limited(const ObjectKey& key, int priority = 0);
  void forget(const ObjectKey& key);
  int num_requeues(const ObjectKey& key);

  // Blocks until a key is ready, and marks it as being processed. nullopt once the queue is shut
  // down and no key is left queued.
  std::optional<ObjectKey> get();
  // get(), with the priority the key was queued at (0 without priorities).
  struct Item {
    ObjectKey key;
    int priority = 0;
  };
  std::optional<Item> get_with_priority();
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
