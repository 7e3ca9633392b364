// Where a work queue reports its metrics. Every hook does nothing by default; the manager plugs a
// Prometheus implementation with controller-runtime's names (given beside each hook; labels
// `name` and `controller`).
#pragma once
#include <cstddef>

namespace rr {

class WorkQueueMetrics {
 public:
  virtual ~WorkQueueMetrics() = default;
  virtual void add() {}                                         // workqueue_adds_total ++
  virtual void set_depth(std::size_t /*items*/) {}              // workqueue_depth{priority=""}
  // A queue with priorities: the keys queued at `priority` went up or down by `delta`.
  virtual void change_depth(int /*priority*/, int /*delta*/) {}  // workqueue_depth{priority="<p>"}
  virtual void observe_queue_latency(double /*seconds*/) {}     // workqueue_queue_duration_seconds
  virtual void observe_work_duration(double /*seconds*/) {}     // workqueue_work_duration_seconds
  virtual void retry() {}                                       // workqueue_retries_total ++
  virtual void set_unfinished_work(double /*seconds*/) {}       // workqueue_unfinished_work_seconds
  virtual void set_longest_running_processor(double /*seconds*/) {}  // workqueue_longest_running_processor_seconds
};

}  // namespace rr
