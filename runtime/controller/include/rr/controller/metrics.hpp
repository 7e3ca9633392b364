// A small Prometheus registry: counters, gauges and histograms with labels, written out in the
// text exposition format 0.0.4 (what a /metrics endpoint serves). See docs/runtime/18-metrics.md.
//
//   rr::metrics::Registry registry;
//   auto& requests = registry.counter("app_requests_total", "Requests served", {"code"});
//   requests.with({"200"}).inc();          // keep the reference on hot paths: no lookup, no lock
//   std::string body = registry.expose();  // Content-Type: rr::metrics::Registry::content_type
//
// Values are atomics; a family takes its mutex only to find or create a label child.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rr::metrics {

// Only ever goes up (Prometheus `counter`).
class Counter {
 public:
  void inc(double amount = 1.0) { value_.fetch_add(amount, std::memory_order_relaxed); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// Goes up and down, or is set (Prometheus `gauge`).
class Gauge {
 public:
  void set(double value) { value_.store(value, std::memory_order_relaxed); }
  void add(double amount) { value_.fetch_add(amount, std::memory_order_relaxed); }
  void inc() { add(1.0); }
  void dec() { add(-1.0); }
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// Counts observations into buckets `le` (upper bounds, inclusive), plus their sum.
class Histogram {
 public:
  // `upper_bounds` strictly increasing and finite; the +Inf bucket is implicit.
  explicit Histogram(std::vector<double> upper_bounds);
  void observe(double value);

  struct Snapshot {
    std::vector<std::uint64_t> cumulative;  // one per upper bound, then +Inf
    double sum = 0;
    std::uint64_t count = 0;  // == cumulative.back(), so _count always matches the +Inf bucket
  };
  Snapshot snapshot() const;
  const std::vector<double>& upper_bounds() const { return upper_bounds_; }

 private:
  std::vector<double> upper_bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> counts_;  // per bucket, not cumulative; last is +Inf
  std::atomic<double> sum_{0.0};
};

enum class MetricType { counter, gauge, histogram };

// One metric name with its help text, type, label names and one child per set of label values.
class Family {
 public:
  Family(std::string name, std::string help, MetricType type, std::vector<std::string> label_names);
  virtual ~Family() = default;
  Family(const Family&) = delete;
  Family& operator=(const Family&) = delete;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  MetricType type() const { return type_; }
  const std::vector<std::string>& label_names() const { return label_names_; }

  // Appends this family's # HELP, # TYPE and sample lines (nothing if it has no child).
  virtual void write_text(std::string& out) const = 0;

 private:
  std::string name_;
  std::string help_;
  MetricType type_;
  std::vector<std::string> label_names_;
};

// The label children of one family, created on first use and never removed (so references stay valid).
template <class Metric>
class FamilyOf final : public Family {
 public:
  FamilyOf(std::string name, std::string help, MetricType type, std::vector<std::string> label_names,
           std::function<std::unique_ptr<Metric>()> make);

  // The child for these label values, in the order of label_names(). Throws std::invalid_argument
  // when the number of values is wrong.
  Metric& with(const std::vector<std::string>& label_values);
  Metric& with(std::initializer_list<std::string_view> label_values);

  void write_text(std::string& out) const override;

 private:
  std::function<std::unique_ptr<Metric>()> make_;
  mutable std::shared_mutex mutex_;
  std::map<std::vector<std::string>, std::unique_ptr<Metric>> children_;
};

using CounterFamily = FamilyOf<Counter>;
using GaugeFamily = FamilyOf<Gauge>;
using HistogramFamily = FamilyOf<Histogram>;

class Registry {
 public:
  static constexpr std::string_view content_type = "text/plain; version=0.0.4; charset=utf-8";

  // Registering a name again with the same type, label names (and buckets) returns the existing
  // family, so that several controllers share one; any other clash throws std::invalid_argument,
  // as do invalid metric or label names. A family without labels exposes its one child at once.
  CounterFamily& counter(std::string name, std::string help, std::vector<std::string> label_names = {});
  GaugeFamily& gauge(std::string name, std::string help, std::vector<std::string> label_names = {});
  HistogramFamily& histogram(std::string name, std::string help, std::vector<std::string> label_names,
                             std::vector<double> upper_bounds);

  // Every family in the text format 0.0.4: families sorted by name, children by label values.
  std::string expose() const;

 private:
  template <class Metric>
  FamilyOf<Metric>& add(std::string name, std::string help, MetricType type,
                        std::vector<std::string> label_names, std::vector<double> upper_bounds);

  mutable std::mutex mutex_;
  std::map<std::string, std::unique_ptr<Family>, std::less<>> families_;
  std::map<std::string, std::vector<double>, std::less<>> histogram_bounds_;
};

// Text-format helpers (public for the tests and for other exporters).
// A sample value as the Go client writes it (strconv 'g', shortest), except that integral values
// below 2^53 are written without exponent: 1000000, not 1e+06. NaN, +Inf, -Inf.
std::string format_value(double value);
// Label value: \ " and newline escaped. Help text: \ and newline escaped.
std::string escape_label_value(std::string_view value);
std::string escape_help(std::string_view help);

// Buckets as prometheus.ExponentialBuckets(start, factor, count) computes them.
std::vector<double> exponential_buckets(double start, double factor, int count);

}  // namespace rr::metrics
