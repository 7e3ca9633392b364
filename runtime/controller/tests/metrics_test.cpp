// The Prometheus registry (exact text format 0.0.4), and controller-runtime's metric set on it.
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rr/controller/controller_metrics.hpp"
#include "rr/controller/fake_clock.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/controller/work_queue.hpp"

using namespace std::chrono_literals;
using rr::metrics::Registry;

namespace {

// The sample lines (not comments) of an exposition.
std::vector<std::string> sample_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.starts_with("#")) lines.push_back(line);
  return lines;
}

std::vector<std::string> comment_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("#")) lines.push_back(line);
  return lines;
}

bool has_line(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

}  // namespace

TEST_CASE("metrics: counter, gauge and histogram with labels in the exact text format") {
  Registry registry;
  auto& requests = registry.counter("app_requests_total", "Requests served.", {"method", "code"});
  requests.with({"GET", "200"}).inc(3);
  requests.with({"GET", "404"}).inc();
  requests.with({"DELETE", "200"}).inc();
  registry.gauge("app_temperature_celsius", "Current temperature.").with({}).set(-2.5);
  auto& latency = registry.histogram("app_latency_seconds", "Request latency.", {"route"}, {0.125, 0.5, 1});
  for (double v : {0.0625, 0.125, 0.75, 3.0}) latency.with({"/a"}).observe(v);
  registry.gauge("app_unused", "A vector with no child is not exposed.", {"x"});

  CHECK(registry.expose() ==
        "# HELP app_latency_seconds Request latency.\n"
        "# TYPE app_latency_seconds histogram\n"
        "app_latency_seconds_bucket{route=\"/a\",le=\"0.125\"} 2\n"
        "app_latency_seconds_bucket{route=\"/a\",le=\"0.5\"} 2\n"
        "app_latency_seconds_bucket{route=\"/a\",le=\"1\"} 3\n"
        "app_latency_seconds_bucket{route=\"/a\",le=\"+Inf\"} 4\n"
        "app_latency_seconds_sum{route=\"/a\"} 3.9375\n"
        "app_latency_seconds_count{route=\"/a\"} 4\n"
        "# HELP app_requests_total Requests served.\n"
        "# TYPE app_requests_total counter\n"
        "app_requests_total{code=\"200\",method=\"DELETE\"} 1\n"
        "app_requests_total{code=\"200\",method=\"GET\"} 3\n"
        "app_requests_total{code=\"404\",method=\"GET\"} 1\n"
        "# HELP app_temperature_celsius Current temperature.\n"
        "# TYPE app_temperature_celsius gauge\n"
        "app_temperature_celsius -2.5\n");
}

TEST_CASE("metrics: a family without labels is exposed at zero from registration") {
  Registry registry;
  registry.counter("up_total", "Ups.");
  registry.histogram("h_seconds", "H.", {}, {1});
  CHECK(registry.expose() ==
        "# HELP h_seconds H.\n"
        "# TYPE h_seconds histogram\n"
        "h_seconds_bucket{le=\"1\"} 0\n"
        "h_seconds_bucket{le=\"+Inf\"} 0\n"
        "h_seconds_sum 0\n"
        "h_seconds_count 0\n"
        "# HELP up_total Ups.\n"
        "# TYPE up_total counter\n"
        "up_total 0\n");
}

TEST_CASE("metrics: label values and help texts are escaped") {
  Registry registry;
  registry.counter("esc_total", "Back\\slash, \"quotes\" and\nnewline.", {"v"}).with({"a\\b\"c\nd"}).inc();
  CHECK(registry.expose() ==
        "# HELP esc_total Back\\\\slash, \"quotes\" and\\nnewline.\n"
        "# TYPE esc_total counter\n"
        "esc_total{v=\"a\\\\b\\\"c\\nd\"} 1\n");
}

TEST_CASE("metrics: values are formatted as the Go client writes them, integers without exponent") {
  using rr::metrics::format_value;
  CHECK(format_value(0) == "0");
  CHECK(format_value(-0.0) == "0");
  CHECK(format_value(1) == "1");
  CHECK(format_value(-1) == "-1");
  CHECK(format_value(1e6) == "1000000");
  CHECK(format_value(123456789012) == "123456789012");
  CHECK(format_value(0.005) == "0.005");
  CHECK(format_value(0.0001) == "0.0001");
  CHECK(format_value(0.00001) == "1e-05");
  CHECK(format_value(-2.5) == "-2.5");
  CHECK(format_value(1234567.5) == "1.2345675e+06");
  CHECK(format_value(0.1 + 0.2) == "0.30000000000000004");
  CHECK(format_value(std::numeric_limits<double>::quiet_NaN()) == "NaN");
  CHECK(format_value(std::numeric_limits<double>::infinity()) == "+Inf");
  CHECK(format_value(-std::numeric_limits<double>::infinity()) == "-Inf");
}

TEST_CASE("metrics: registering a name again returns the family, or throws on another definition") {
  Registry registry;
  auto& a = registry.counter("x_total", "X.", {"l"});
  CHECK(&registry.counter("x_total", "X.", {"l"}) == &a);
  CHECK_THROWS_AS(registry.gauge("x_total", "X.", {"l"}), std::invalid_argument);
  CHECK_THROWS_AS(registry.counter("x_total", "X.", {"other"}), std::invalid_argument);
  registry.histogram("h", "H.", {}, {1, 2});
  CHECK_THROWS_AS(registry.histogram("h", "H.", {}, {1, 3}), std::invalid_argument);
  CHECK_THROWS_AS(registry.counter("bad-name", "B."), std::invalid_argument);
  CHECK_THROWS_AS(registry.counter("ok_total", "B.", {"__reserved"}), std::invalid_argument);
  CHECK_THROWS_AS(registry.histogram("h2", "H.", {"le"}, {1}), std::invalid_argument);
  CHECK_THROWS_AS(registry.histogram("h3", "H.", {}, {2, 1}), std::invalid_argument);
  CHECK_THROWS_AS(a.with({"one", "two"}), std::invalid_argument);
}

TEST_CASE("metrics: concurrent increments and observations from threads are all counted") {
  Registry registry;
  auto& counter = registry.counter("c_total", "C.", {"worker"});
  auto& histogram = registry.histogram("h_seconds", "H.", {"worker"}, {0.5});
  constexpr int threads = 8, per_thread = 20000;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (int i = 0; i < per_thread; ++i) {
        counter.with({"shared"}).inc();                        // one child, contended
        counter.with({"w" + std::to_string(t % 3)}).inc();     // children created concurrently
        histogram.with({"shared"}).observe(i % 2 == 0 ? 0.25 : 1.0);
      }
    });
  }
  for (auto& th : pool) th.join();
  CHECK(counter.with({"shared"}).value() == threads * per_thread);
  CHECK(counter.with({"w0"}).value() + counter.with({"w1"}).value() + counter.with({"w2"}).value() ==
        threads * per_thread);
  const auto snap = histogram.with({"shared"}).snapshot();
  CHECK(snap.count == threads * per_thread);
  CHECK(snap.cumulative[0] == threads * per_thread / 2);
  CHECK(snap.sum == threads * per_thread / 2 * 1.25);
  const std::string text = registry.expose();
  CHECK(has_line(text, "c_total{worker=\"shared\"} 160000"));
  CHECK(has_line(text, "h_seconds_count{worker=\"shared\"} 160000"));
}

TEST_CASE("metrics: workqueue buckets are ExponentialBuckets(10e-9, 10, 12) as Go prints them") {
  std::vector<std::string> printed;
  for (double b : rr::metrics::workqueue_duration_buckets()) printed.push_back(rr::metrics::format_value(b));
  CHECK(printed == std::vector<std::string>{"1e-08", "1e-07", "1e-06", "9.999999999999999e-06", "9.999999999999999e-05",
                                            "0.001", "0.01", "0.1", "1", "10", "100", "1000"});
}

TEST_CASE("metrics: the reconcile metrics have controller-runtime's names, labels, types and help") {
  Registry registry;
  rr::metrics::ReconcileMetrics widget(registry, "widget", 2);
  widget.observe(rr::metrics::ReconcileResult::success, 0.25);
  widget.observe(rr::metrics::ReconcileResult::error, 0.01);
  widget.terminal_error();
  widget.observe(rr::metrics::ReconcileResult::requeue_after, 1.5);
  widget.worker_started();
  const std::string text = registry.expose();

  CHECK(
      comment_lines(text) ==
      std::vector<std::string>{
          "# HELP controller_runtime_active_workers Number of currently used workers per controller",
          "# TYPE controller_runtime_active_workers gauge",
          "# HELP controller_runtime_max_concurrent_reconciles Maximum number of concurrent reconciles per controller",
          "# TYPE controller_runtime_max_concurrent_reconciles gauge",
          "# HELP controller_runtime_reconcile_errors_total Total number of reconciliation errors per controller",
          "# TYPE controller_runtime_reconcile_errors_total counter",
          "# HELP controller_runtime_reconcile_panics_total Total number of reconciliation panics per controller",
          "# TYPE controller_runtime_reconcile_panics_total counter",
          "# HELP controller_runtime_reconcile_time_seconds Length of time per reconciliation per controller",
          "# TYPE controller_runtime_reconcile_time_seconds histogram",
          "# HELP controller_runtime_reconcile_timeouts_total Total number of reconciliation timeouts per controller",
          "# TYPE controller_runtime_reconcile_timeouts_total counter",
          "# HELP controller_runtime_reconcile_total Total number of reconciliations per controller",
          "# TYPE controller_runtime_reconcile_total counter",
          "# HELP controller_runtime_terminal_reconcile_errors_total Total number of terminal reconciliation errors "
          "per controller",
          "# TYPE controller_runtime_terminal_reconcile_errors_total counter"});

  std::vector<std::string> not_buckets;
  std::vector<std::string> bucket_bounds;
  for (const auto& line : sample_lines(text)) {
    if (line.starts_with("controller_runtime_reconcile_time_seconds_bucket{")) {
      const auto le = line.find("le=\"") + 4;
      bucket_bounds.push_back(line.substr(le, line.find('"', le) - le));
    } else {
      not_buckets.push_back(line);
    }
  }
  CHECK(not_buckets ==
        std::vector<std::string>{"controller_runtime_active_workers{controller=\"widget\"} 1",
                                 "controller_runtime_max_concurrent_reconciles{controller=\"widget\"} 2",
                                 "controller_runtime_reconcile_errors_total{controller=\"widget\"} 1",
                                 "controller_runtime_reconcile_panics_total{controller=\"widget\"} 0",
                                 "controller_runtime_reconcile_time_seconds_sum{controller=\"widget\"} 1.76",
                                 "controller_runtime_reconcile_time_seconds_count{controller=\"widget\"} 3",
                                 "controller_runtime_reconcile_timeouts_total{controller=\"widget\"} 0",
                                 "controller_runtime_reconcile_total{controller=\"widget\",result=\"error\"} 1",
                                 "controller_runtime_reconcile_total{controller=\"widget\",result=\"requeue\"} 0",
                                 "controller_runtime_reconcile_total{controller=\"widget\",result=\"requeue_after\"} 1",
                                 "controller_runtime_reconcile_total{controller=\"widget\",result=\"success\"} 1",
                                 "controller_runtime_terminal_reconcile_errors_total{controller=\"widget\"} 1"});
  CHECK(bucket_bounds == std::vector<std::string>{
      "0.005", "0.01", "0.025", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3", "0.35", "0.4", "0.45", "0.5", "0.6",
      "0.7", "0.8", "0.9", "1", "1.25", "1.5", "1.75", "2", "2.5", "3", "3.5", "4", "4.5", "5", "6", "7", "8",
      "9", "10", "15", "20", "25", "30", "40", "50", "60", "+Inf"});
  CHECK(has_line(text, "controller_runtime_reconcile_time_seconds_bucket{controller=\"widget\",le=\"0.005\"} 0"));
  CHECK(has_line(text, "controller_runtime_reconcile_time_seconds_bucket{controller=\"widget\",le=\"0.01\"} 1"));
  CHECK(has_line(text, "controller_runtime_reconcile_time_seconds_bucket{controller=\"widget\",le=\"0.25\"} 2"));
  CHECK(has_line(text, "controller_runtime_reconcile_time_seconds_bucket{controller=\"widget\",le=\"1.5\"} 3"));

  // A second controller shares the families; its series sort after "widget"'s only by label value.
  rr::metrics::ReconcileMetrics apple(registry, "apple");
  const std::string both = registry.expose();
  CHECK(both.find("controller_runtime_active_workers{controller=\"apple\"} 0") <
        both.find("controller_runtime_active_workers{controller=\"widget\"} 1"));
}

TEST_CASE("metrics: the work-queue adapter, driven by a real WorkQueue on a fake clock") {
  rr::FakeClock clock;
  Registry registry;
  rr::WorkQueueOptions options;
  options.clock = &clock;
  options.metrics = std::make_shared<rr::metrics::PrometheusWorkQueueMetrics>(registry, "widget");
  rr::WorkQueue queue(std::move(options));
  const rr::ObjectKey a{"default", "a"}, b{"default", "b"};
  const std::string labels = "{controller=\"widget\",name=\"widget\"}";
  // controller-runtime's depth has a `priority` label, empty for a queue without priorities.
  const std::string depth_labels = "{controller=\"widget\",name=\"widget\",priority=\"\"}";

  // Every series exists at zero before the first add, as client-go creates them with the queue.
  std::string text = registry.expose();
  CHECK(has_line(text, "workqueue_adds_total" + labels + " 0"));
  CHECK(has_line(text, "workqueue_depth" + depth_labels + " 0"));
  CHECK(has_line(text, "workqueue_queue_duration_seconds_count" + labels + " 0"));

  queue.add(a);
  queue.add(b);
  queue.add(a);  // already queued: not an add
  clock.advance(2s);
  REQUIRE(queue.get() == a);  // waited 2 s in the queue
  clock.advance(3s);
  queue.update_unfinished_work();  // a has been processed for 3 s
  text = registry.expose();
  CHECK(has_line(text, "workqueue_unfinished_work_seconds" + labels + " 3"));
  CHECK(has_line(text, "workqueue_longest_running_processor_seconds" + labels + " 3"));

  queue.done(a);  // worked 3 s
  queue.add_rate_limited(a);
  queue.update_unfinished_work();
  text = registry.expose();

  CHECK(has_line(text, "workqueue_adds_total" + labels + " 2"));
  CHECK(has_line(text, "workqueue_depth" + depth_labels + " 1"));  // b; a waits on its backoff
  CHECK(has_line(text, "workqueue_retries_total" + labels + " 1"));
  CHECK(has_line(text, "workqueue_unfinished_work_seconds" + labels + " 0"));
  CHECK(has_line(text, "workqueue_longest_running_processor_seconds" + labels + " 0"));
  const std::string q = "workqueue_queue_duration_seconds", w = "workqueue_work_duration_seconds";
  const std::string le = "{controller=\"widget\",name=\"widget\",le=";
  CHECK(has_line(text, q + "_bucket" + le + "\"1\"} 0"));
  CHECK(has_line(text, q + "_bucket" + le + "\"10\"} 1"));
  CHECK(has_line(text, q + "_bucket" + le + "\"+Inf\"} 1"));
  CHECK(has_line(text, q + "_sum" + labels + " 2"));
  CHECK(has_line(text, q + "_count" + labels + " 1"));
  CHECK(has_line(text, w + "_bucket" + le + "\"1\"} 0"));
  CHECK(has_line(text, w + "_bucket" + le + "\"10\"} 1"));
  CHECK(has_line(text, w + "_sum" + labels + " 3"));
  CHECK(has_line(text, w + "_count" + labels + " 1"));
  CHECK(has_line(text, "# HELP workqueue_adds_total Total number of adds handled by workqueue"));
  CHECK(has_line(text, "# TYPE workqueue_depth gauge"));
  CHECK(has_line(text, "# TYPE " + q + " histogram"));
  CHECK(has_line(text, "# TYPE workqueue_retries_total counter"));
  CHECK(has_line(text, "# TYPE workqueue_unfinished_work_seconds gauge"));

  // The rate-limited key becomes ready after its 5 ms backoff: one more add, depth 2.
  clock.advance(5ms);
  CHECK(queue.len() == 2);
  text = registry.expose();
  CHECK(has_line(text, "workqueue_adds_total" + labels + " 3"));
  CHECK(has_line(text, "workqueue_depth" + depth_labels + " 2"));
  queue.shut_down();
}

TEST_CASE("metrics: a queue with priorities reports its depth per priority") {
  Registry registry;
  rr::WorkQueueOptions options;
  options.priorities = true;
  options.metrics = std::make_shared<rr::metrics::PrometheusWorkQueueMetrics>(registry, "widget", true);
  rr::WorkQueue queue(std::move(options));
  const std::string prefix = "workqueue_depth{controller=\"widget\",name=\"widget\",priority=";
  CHECK(registry.expose().find("workqueue_depth{") == std::string::npos);  // no series before a key
  queue.add({"default", "a"}, rr::kLowPriority);
  queue.add({"default", "b"}, rr::kLowPriority);
  queue.add({"default", "c"});
  std::string text = registry.expose();
  CHECK(has_line(text, "# HELP workqueue_depth Current depth of workqueue by workqueue and priority"));
  CHECK(has_line(text, prefix + "\"-100\"} 2"));
  CHECK(has_line(text, prefix + "\"0\"} 1"));
  REQUIRE(queue.get() == rr::ObjectKey{"default", "c"});
  text = registry.expose();
  CHECK(has_line(text, prefix + "\"0\"} 0"));
  CHECK(text.find("priority=\"\"") == std::string::npos);

  // Past 25 distinct priorities, every change counts under one placeholder (controller-runtime's cap).
  for (int p = 1; p <= 25; ++p) queue.add({"default", "k" + std::to_string(p)}, p);
  text = registry.expose();
  CHECK(has_line(text, prefix + "\"23\"} 1"));  // -100, 0 and 1..23: 25 priorities
  CHECK(text.find(prefix + "\"24\"}") == std::string::npos);
  CHECK(has_line(text, prefix + "\"exceeded_cardinality_limit\"} 2"));  // 24 and 25
  queue.shut_down();
}

TEST_CASE("metrics: reconcile timeouts are counted per controller from zero") {
  Registry registry;
  rr::metrics::ReconcileMetrics widget(registry, "widget");
  CHECK(has_line(registry.expose(), "controller_runtime_reconcile_timeouts_total{controller=\"widget\"} 0"));
  widget.timeout();
  const std::string text = registry.expose();
  CHECK(has_line(text, "controller_runtime_reconcile_timeouts_total{controller=\"widget\"} 1"));
  CHECK(has_line(
      text,
      "# HELP controller_runtime_reconcile_timeouts_total Total number of reconciliation timeouts per controller"));
}
