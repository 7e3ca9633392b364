// Names, help texts and buckets copied from controller-runtime so that existing dashboards and
// alerts work on an rrgen operator unchanged.
#include "rr/controller/controller_metrics.hpp"

#include <string>

namespace rr::metrics {
namespace {

constexpr ReconcileResult all_results[] = {ReconcileResult::success, ReconcileResult::error, ReconcileResult::requeue,
                                           ReconcileResult::requeue_after};

Histogram& reconcile_time(Registry& registry, const std::string& controller) {
  return registry
      .histogram("controller_runtime_reconcile_time_seconds", "Length of time per reconciliation per controller",
                 {"controller"}, reconcile_time_buckets())
      .with({controller});
}

Counter& per_controller_counter(Registry& registry, const char* name, const char* help, const std::string& controller) {
  return registry.counter(name, help, {"controller"}).with({controller});
}

Gauge& per_controller_gauge(Registry& registry, const char* name, const char* help, const std::string& controller) {
  return registry.gauge(name, help, {"controller"}).with({controller});
}

// Work-queue families are labelled {name, controller}, both set to the queue's name.
std::vector<std::string> queue_labels(std::string_view name) { return {std::string(name), std::string(name)}; }

}  // namespace

std::string_view to_string(ReconcileResult result) {
  switch (result) {
    case ReconcileResult::success: return "success";
    case ReconcileResult::error: return "error";
    case ReconcileResult::requeue: return "requeue";
    case ReconcileResult::requeue_after: return "requeue_after";
  }
  return "unknown";
}

const std::vector<double>& reconcile_time_buckets() {
  static const std::vector<double> buckets{0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6,
                                           0.7,   0.8,  0.9,   1.0,  1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5,
                                           6,     7,    8,     9,    10,   15,  20,   25,  30,  40,  50,  60};
  return buckets;
}

const std::vector<double>& workqueue_duration_buckets() {
  static const std::vector<double> buckets = exponential_buckets(10e-9, 10, 12);
  return buckets;
}

ReconcileMetrics::ReconcileMetrics(Registry& registry, std::string_view controller_name, int max_concurrent_reconciles)
    : totals_{},
      errors_(per_controller_counter(registry, "controller_runtime_reconcile_errors_total",
                                     "Total number of reconciliation errors per controller",
                                     std::string(controller_name))),
      terminal_errors_(per_controller_counter(registry, "controller_runtime_terminal_reconcile_errors_total",
                                              "Total number of terminal reconciliation errors per controller",
                                              std::string(controller_name))),
      panics_(per_controller_counter(registry, "controller_runtime_reconcile_panics_total",
                                     "Total number of reconciliation panics per controller",
                                     std::string(controller_name))),
      timeouts_(per_controller_counter(registry, "controller_runtime_reconcile_timeouts_total",
                                       "Total number of reconciliation timeouts per controller",
                                       std::string(controller_name))),
      time_(reconcile_time(registry, std::string(controller_name))),
      active_workers_(per_controller_gauge(registry, "controller_runtime_active_workers",
                                           "Number of currently used workers per controller",
                                           std::string(controller_name))) {
  const std::string controller(controller_name);
  auto& totals = registry.counter("controller_runtime_reconcile_total", "Total number of reconciliations per controller",
                                  {"controller", "result"});
  for (ReconcileResult result : all_results)
    totals_[static_cast<int>(result)] = &totals.with({controller, std::string(to_string(result))});
  per_controller_gauge(registry, "controller_runtime_max_concurrent_reconciles",
                       "Maximum number of concurrent reconciles per controller", controller)
      .set(max_concurrent_reconciles);
}

void ReconcileMetrics::observe(ReconcileResult result, double seconds) {
  totals_[static_cast<int>(result)]->inc();
  if (result == ReconcileResult::error) errors_.inc();
  time_.observe(seconds);
}

PrometheusWorkQueueMetrics::PrometheusWorkQueueMetrics(Registry& registry, std::string_view name, bool priorities)
    : name_(name),
      adds_(
          registry.counter("workqueue_adds_total", "Total number of adds handled by workqueue", {"name", "controller"})
              .with(queue_labels(name))),
      depth_(registry.gauge("workqueue_depth", "Current depth of workqueue by workqueue and priority",
                            {"name", "controller", "priority"})),
      queue_duration_(registry
                          .histogram("workqueue_queue_duration_seconds",
                                     "How long in seconds an item stays in workqueue before being requested",
                                     {"name", "controller"}, workqueue_duration_buckets())
                          .with(queue_labels(name))),
      work_duration_(registry
                         .histogram("workqueue_work_duration_seconds",
                                    "How long in seconds processing an item from workqueue takes.",
                                    {"name", "controller"}, workqueue_duration_buckets())
                         .with(queue_labels(name))),
      retries_(registry
                   .counter("workqueue_retries_total", "Total number of retries handled by workqueue",
                            {"name", "controller"})
                   .with(queue_labels(name))),
      unfinished_work_(registry
                           .gauge("workqueue_unfinished_work_seconds",
                                  "How many seconds of work has been done that is in progress and hasn't been observed "
                                  "by work_duration. Large values indicate stuck threads. One can deduce the number of "
                                  "stuck threads by observing the rate at which this increases.",
                                  {"name", "controller"})
                           .with(queue_labels(name))),
      longest_running_(registry
                           .gauge("workqueue_longest_running_processor_seconds",
                                  "How many seconds has the longest running processor for workqueue been running.",
                                  {"name", "controller"})
                           .with(queue_labels(name))) {
  if (!priorities) set_depth(0);
}

void PrometheusWorkQueueMetrics::set_depth(std::size_t items) {
  depth_.with({name_, name_, ""}).set(static_cast<double>(items));
}

void PrometheusWorkQueueMetrics::change_depth(int priority, int delta) { depth_of(priority).add(delta); }

// controller-runtime's cap (maxRecommendedUniquePriorities): a label per priority while there are
// at most 25 of them, then one placeholder for all.
Gauge& PrometheusWorkQueueMetrics::depth_of(int priority) {
  std::string label = "exceeded_cardinality_limit";
  {
    std::lock_guard lock(priorities_mutex_);
    if (!too_many_priorities_) {
      priorities_seen_.insert(priority);
      if (priorities_seen_.size() > 25) {
        too_many_priorities_ = true;
        priorities_seen_.clear();
      } else {
        label = std::to_string(priority);
      }
    }
  }
  return depth_.with({name_, name_, label});
}

}  // namespace rr::metrics
