// The registry and the text exposition format 0.0.4, following the Go client (client_golang /
// expfmt): label pairs sorted by name with `le` last, children sorted by those label values,
// histogram buckets cumulative then _sum then _count.
#include "rr/controller/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace rr::metrics {
namespace {

bool valid_name(std::string_view name, bool allow_colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (allow_colon && c == ':');
    const bool digit = c >= '0' && c <= '9';
    if (!letter && !(digit && i > 0)) return false;
  }
  return true;
}

void check_names(std::string_view name, const std::vector<std::string>& label_names, MetricType type) {
  if (!valid_name(name, true)) throw std::invalid_argument("invalid metric name: " + std::string(name));
  for (const auto& label : label_names) {
    if (!valid_name(label, false) || label.starts_with("__"))
      throw std::invalid_argument("invalid label name " + label + " for " + std::string(name));
    if (type == MetricType::histogram && label == "le")
      throw std::invalid_argument("label name le is reserved in histogram " + std::string(name));
  }
}

std::string_view type_name(MetricType type) {
  switch (type) {
    case MetricType::counter: return "counter";
    case MetricType::gauge: return "gauge";
    case MetricType::histogram: return "histogram";
  }
  return "untyped";
}

// Children in exposition order: label values permuted into label-name order, then sorted.
template <class Metric>
std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, const Metric*>> sorted_children(
    const std::vector<std::string>& label_names,
    const std::map<std::vector<std::string>, std::unique_ptr<Metric>>& children) {
  std::vector<std::size_t> order(label_names.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return label_names[a] < label_names[b]; });

  std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, const Metric*>> rows;
  rows.reserve(children.size());
  for (const auto& [values, metric] : children) {
    std::vector<std::pair<std::string, std::string>> pairs;
    pairs.reserve(order.size());
    for (std::size_t i : order) pairs.emplace_back(label_names[i], values[i]);
    rows.emplace_back(std::move(pairs), metric.get());
  }
  std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    for (std::size_t i = 0; i < a.first.size(); ++i) {
      if (a.first[i].second != b.first[i].second) return a.first[i].second < b.first[i].second;
    }
    return false;
  });
  return rows;
}

void append_sample(std::string& out, std::string_view name, std::string_view suffix,
                   const std::vector<std::pair<std::string, std::string>>& labels, const std::string* le,
                   double value) {
  out.append(name).append(suffix);
  if (!labels.empty() || le != nullptr) {
    out.push_back('{');
    bool first = true;
    for (const auto& [label, label_value] : labels) {
      if (!first) out.push_back(',');
      first = false;
      out.append(label).append("=\"").append(escape_label_value(label_value)).push_back('"');
    }
    if (le != nullptr) {
      if (!first) out.push_back(',');
      out.append("le=\"").append(*le).push_back('"');
    }
    out.push_back('}');
  }
  out.push_back(' ');
  out.append(format_value(value)).push_back('\n');
}

void append_header(std::string& out, const Family& family) {
  out.append("# HELP ").append(family.name()).push_back(' ');
  out.append(escape_help(family.help())).push_back('\n');
  out.append("# TYPE ").append(family.name()).push_back(' ');
  out.append(type_name(family.type())).push_back('\n');
}

void write_values(std::string& out, const Family& family, const Counter& counter,
                  const std::vector<std::pair<std::string, std::string>>& labels) {
  append_sample(out, family.name(), "", labels, nullptr, counter.value());
}

void write_values(std::string& out, const Family& family, const Gauge& gauge,
                  const std::vector<std::pair<std::string, std::string>>& labels) {
  append_sample(out, family.name(), "", labels, nullptr, gauge.value());
}

void write_values(std::string& out, const Family& family, const Histogram& histogram,
                  const std::vector<std::pair<std::string, std::string>>& labels) {
  const Histogram::Snapshot snap = histogram.snapshot();
  const auto& bounds = histogram.upper_bounds();
  for (std::size_t i = 0; i <= bounds.size(); ++i) {
    const std::string le = i < bounds.size() ? format_value(bounds[i]) : "+Inf";
    append_sample(out, family.name(), "_bucket", labels, &le, static_cast<double>(snap.cumulative[i]));
  }
  append_sample(out, family.name(), "_sum", labels, nullptr, snap.sum);
  append_sample(out, family.name(), "_count", labels, nullptr, static_cast<double>(snap.count));
}

}  // namespace

// ---- values ------------------------------------------------------------------------------------

Histogram::Histogram(std::vector<double> upper_bounds) : upper_bounds_(std::move(upper_bounds)) {
  if (!upper_bounds_.empty() && std::isinf(upper_bounds_.back()) && upper_bounds_.back() > 0) upper_bounds_.pop_back();
  for (std::size_t i = 0; i < upper_bounds_.size(); ++i) {
    if (!std::isfinite(upper_bounds_[i]) || (i > 0 && upper_bounds_[i] <= upper_bounds_[i - 1]))
      throw std::invalid_argument("histogram buckets must be finite and strictly increasing");
  }
  counts_ = std::make_unique<std::atomic<std::uint64_t>[]>(upper_bounds_.size() + 1);
}

void Histogram::observe(double value) {
  // The first bound >= value: buckets are `le` (less than or equal).
  const auto it = std::lower_bound(upper_bounds_.begin(), upper_bounds_.end(), value);
  counts_[static_cast<std::size_t>(it - upper_bounds_.begin())].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(value, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::snapshot() const {
  Snapshot snap;
  snap.cumulative.reserve(upper_bounds_.size() + 1);
  std::uint64_t running = 0;
  for (std::size_t i = 0; i <= upper_bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    snap.cumulative.push_back(running);
  }
  snap.count = running;
  snap.sum = sum_.load(std::memory_order_relaxed);
  return snap;
}

// ---- families ----------------------------------------------------------------------------------

Family::Family(std::string name, std::string help, MetricType type, std::vector<std::string> label_names)
    : name_(std::move(name)), help_(std::move(help)), type_(type), label_names_(std::move(label_names)) {}

template <class Metric>
FamilyOf<Metric>::FamilyOf(std::string name, std::string help, MetricType type,
                           std::vector<std::string> label_names, std::function<std::unique_ptr<Metric>()> make)
    : Family(std::move(name), std::move(help), type, std::move(label_names)), make_(std::move(make)) {}

template <class Metric>
Metric& FamilyOf<Metric>::with(const std::vector<std::string>& label_values) {
  if (label_values.size() != label_names().size())
    throw std::invalid_argument(name() + ": expected " + std::to_string(label_names().size()) + " label values, got " +
                                std::to_string(label_values.size()));
  {
    std::shared_lock lock(mutex_);
    if (auto it = children_.find(label_values); it != children_.end()) return *it->second;
  }
  std::unique_lock lock(mutex_);
  auto [it, inserted] = children_.try_emplace(label_values);
  if (inserted) it->second = make_();
  return *it->second;
}

template <class Metric>
Metric& FamilyOf<Metric>::with(std::initializer_list<std::string_view> label_values) {
  return with(std::vector<std::string>(label_values.begin(), label_values.end()));
}

template <class Metric>
void FamilyOf<Metric>::write_text(std::string& out) const {
  std::shared_lock lock(mutex_);
  if (children_.empty()) return;  // as the Go client: a vector with no child is not exposed
  append_header(out, *this);
  for (const auto& [labels, metric] : sorted_children(label_names(), children_)) write_values(out, *this, *metric, labels);
}

template class FamilyOf<Counter>;
template class FamilyOf<Gauge>;
template class FamilyOf<Histogram>;

// ---- registry ----------------------------------------------------------------------------------

template <class Metric>
FamilyOf<Metric>& Registry::add(std::string name, std::string help, MetricType type,
                                std::vector<std::string> label_names, std::vector<double> upper_bounds) {
  check_names(name, label_names, type);
  std::lock_guard guard(mutex_);
  if (auto it = families_.find(name); it != families_.end()) {
    auto* existing = dynamic_cast<FamilyOf<Metric>*>(it->second.get());
    const bool same_bounds = type != MetricType::histogram || histogram_bounds_[name] == upper_bounds;
    if (existing == nullptr || existing->type() != type || existing->label_names() != label_names || !same_bounds)
      throw std::invalid_argument("metric " + name + " is already registered with another definition");
    return *existing;
  }
  std::function<std::unique_ptr<Metric>()> make;
  if constexpr (std::is_same_v<Metric, Histogram>) {
    Histogram check(upper_bounds);  // validates the bounds now rather than on first use
    make = [bounds = check.upper_bounds()] { return std::make_unique<Histogram>(bounds); };
    histogram_bounds_[name] = upper_bounds;
  } else {
    make = [] { return std::make_unique<Metric>(); };
  }
  auto family = std::make_unique<FamilyOf<Metric>>(name, std::move(help), type, std::move(label_names), std::move(make));
  auto& result = *family;
  if (result.label_names().empty()) result.with(std::vector<std::string>{});
  families_.emplace(std::move(name), std::move(family));
  return result;
}

CounterFamily& Registry::counter(std::string name, std::string help, std::vector<std::string> label_names) {
  return add<Counter>(std::move(name), std::move(help), MetricType::counter, std::move(label_names), {});
}

GaugeFamily& Registry::gauge(std::string name, std::string help, std::vector<std::string> label_names) {
  return add<Gauge>(std::move(name), std::move(help), MetricType::gauge, std::move(label_names), {});
}

HistogramFamily& Registry::histogram(std::string name, std::string help, std::vector<std::string> label_names,
                                     std::vector<double> upper_bounds) {
  return add<Histogram>(std::move(name), std::move(help), MetricType::histogram, std::move(label_names),
                        std::move(upper_bounds));
}

std::string Registry::expose() const {
  std::string out;
  std::lock_guard guard(mutex_);
  for (const auto& [name, family] : families_) family->write_text(out);
  return out;
}

// ---- text helpers ------------------------------------------------------------------------------

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  if (value == std::trunc(value) && std::fabs(value) < 9007199254740992.0)  // 2^53: exact as an integer
    return std::to_string(static_cast<long long>(value));

  // Go's strconv.FormatFloat(v, 'g', -1, 64): shortest digits; exponent form when exp < -4 or exp >= 6.
  char buf[64];
  auto sci = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
  const std::string scientific(buf, sci.ptr);
  const int exponent = std::stoi(scientific.substr(scientific.find('e') + 1));
  if (exponent < -4 || exponent >= 6) return scientific;
  auto fixed = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
  return std::string(buf, fixed.ptr);
}

std::string escape_label_value(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out.push_back(c);
  }
  return out;
}

std::string escape_help(std::string_view help) {
  std::string out;
  out.reserve(help.size());
  for (char c : help) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out.push_back(c);
  }
  return out;
}

std::vector<double> exponential_buckets(double start, double factor, int count) {
  if (count < 1 || start <= 0 || factor <= 1) throw std::invalid_argument("exponential_buckets: bad arguments");
  std::vector<double> buckets;
  buckets.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i, start *= factor) buckets.push_back(start);  // repeated product, as Go
  return buckets;
}

}  // namespace rr::metrics
