// controller-runtime's metric set on an rr::metrics::Registry: the reconcile metrics
// (pkg/internal/controller/metrics) and the work-queue metrics (pkg/metrics/workqueue.go), with
// their names, help texts, labels and buckets. See docs/runtime/18-metrics.md.
//
//   rr::metrics::Registry registry;
//   rr::metrics::ReconcileMetrics reconciles(registry, "widget", /*max_concurrent_reconciles=*/2);
//   rr::WorkQueueOptions options;
//   options.metrics = std::make_shared<rr::metrics::PrometheusWorkQueueMetrics>(registry, "widget");
#pragma once
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rr/controller/metrics.hpp"
#include "rr/controller/work_queue_metrics.hpp"

namespace rr::metrics {

// The `result` label of controller_runtime_reconcile_total.
enum class ReconcileResult { success, error, requeue, requeue_after };
std::string_view to_string(ReconcileResult result);

// controller_runtime_reconcile_time_seconds buckets: 0.005 … 60 s.
const std::vector<double>& reconcile_time_buckets();
// workqueue_queue_duration_seconds / workqueue_work_duration_seconds buckets:
// ExponentialBuckets(10e-9, 10, 12), i.e. 1e-08 … 1000 s.
const std::vector<double>& workqueue_duration_buckets();

// One controller's reconcile metrics, label controller="<name>". Creating it sets every series to
// zero (and max_concurrent_reconciles), as controller-runtime does when a controller starts.
class ReconcileMetrics {
 public:
  ReconcileMetrics(Registry& registry, std::string_view controller, int max_concurrent_reconciles = 1);

  // One finished reconcile: reconcile_total{result}++, reconcile_errors_total++ on error, and
  // reconcile_time_seconds observes `seconds`.
  void observe(ReconcileResult result, double seconds);
  // A TerminalError (counted in addition to observe(error, …)), a recovered panic.
  void terminal_error() { terminal_errors_.inc(); }
  void panic() { panics_.inc(); }
  // A reconcile that overran ControllerOptions::reconcile_timeout
  // (controller_runtime_reconcile_timeouts_total).
  void timeout() { timeouts_.inc(); }
  // controller_runtime_active_workers ±1 around each reconcile.
  void worker_started() { active_workers_.inc(); }
  void worker_finished() { active_workers_.dec(); }

 private:
  Counter* totals_[4];  // by ReconcileResult
  Counter& errors_;
  Counter& terminal_errors_;
  Counter& panics_;
  Counter& timeouts_;
  Histogram& time_;
  Gauge& active_workers_;
};

// rr::WorkQueueMetrics on the workqueue_* families, labels {name="<queue>", controller="<queue>"}
// (controller-runtime names the queue after its controller and sets both labels to it). Every
// series exists, at zero, from construction, except workqueue_depth's of a queue with
// priorities: it has the extra label `priority` ("" for a queue without priorities, as
// controller-runtime), and a series per priority from the first key queued at it; past 25
// distinct priorities they all count under priority="exceeded_cardinality_limit".
class PrometheusWorkQueueMetrics final : public WorkQueueMetrics {
 public:
  PrometheusWorkQueueMetrics(Registry& registry, std::string_view name, bool priorities = false);

  void add() override { adds_.inc(); }
  void set_depth(std::size_t items) override;
  void change_depth(int priority, int delta) override;
  void observe_queue_latency(double seconds) override { queue_duration_.observe(seconds); }
  void observe_work_duration(double seconds) override { work_duration_.observe(seconds); }
  void retry() override { retries_.inc(); }
  void set_unfinished_work(double seconds) override { unfinished_work_.set(seconds); }
  void set_longest_running_processor(double seconds) override { longest_running_.set(seconds); }

 private:
  Gauge& depth_of(int priority);

  std::string name_;
  Counter& adds_;
  GaugeFamily& depth_;
  std::mutex priorities_mutex_;
  std::set<int> priorities_seen_;
  bool too_many_priorities_ = false;
  Histogram& queue_duration_;
  Histogram& work_duration_;
  Counter& retries_;
  Gauge& unfinished_work_;
  Gauge& longest_running_;
};

}  // namespace rr::metrics
