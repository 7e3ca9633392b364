#include "soak_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "rr/apiserver/fault_injection.hpp"
#include "rr/client/api_error.hpp"
#include "rr/manager/manager.hpp"

namespace rr::e2e {

long env_number(const char* name, long fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  return (end != nullptr && *end == '\0' && value >= 0) ? value : fallback;
}

int with_retries(const std::function<void()>& call, int attempts, const std::function<bool(const Status&)>& done_on) {
  for (int attempt = 1;; ++attempt) {
    try {
      call();
      return attempt - 1;
    } catch (const ApiError& e) {
      if (done_on && done_on(e.status())) return attempt - 1;
      if (attempt >= attempts) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(10 * std::min(attempt, 10)));
    }
  }
}

bool poll_until(const std::function<bool()>& done, std::chrono::steady_clock::duration timeout,
                std::chrono::milliseconds every, const std::function<void()>& progress) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  auto next_progress = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    if (done()) return true;
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    if (progress && now >= next_progress) {
      progress();
      next_progress = now + std::chrono::seconds(10);
    }
    std::this_thread::sleep_for(every);
  }
}

namespace {

// The value of `label` in a sample's label text `a="x",b="y"` ("" when absent).
std::string label_value(std::string_view labels, std::string_view label) {
  const std::string key = std::string(label) + "=\"";
  for (std::size_t at = labels.find(key); at != std::string_view::npos; at = labels.find(key, at + 1)) {
    if (at != 0 && labels[at - 1] != ',') continue;  // "xresult=" is another label
    const std::size_t begin = at + key.size();
    const std::size_t end = labels.find('"', begin);
    return std::string(labels.substr(begin, end - begin));
  }
  return {};
}

}  // namespace

std::map<std::string, double> samples_by_label(std::string_view exposition, std::string_view metric,
                                               std::string_view label, std::string_view filter) {
  std::map<std::string, double> sums;
  std::istringstream lines{std::string(exposition)};
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(metric)) continue;
    const std::string_view rest = std::string_view(line).substr(metric.size());
    std::string_view labels;
    std::string_view value;
    if (rest.starts_with("{")) {
      const std::size_t close = rest.find("} ");
      if (close == std::string_view::npos) continue;
      labels = rest.substr(1, close - 1);
      value = rest.substr(close + 2);
    } else if (rest.starts_with(" ")) {
      value = rest.substr(1);
    } else {
      continue;  // another metric whose name starts with this one (e.g. _bucket)
    }
    if (!filter.empty() && labels.find(filter) == std::string_view::npos) continue;
    sums[label_value(labels, label)] += std::strtod(std::string(value).c_str(), nullptr);
  }
  return sums;
}

double sum_of(const std::map<std::string, double>& samples) {
  double total = 0;
  for (const auto& [key, value] : samples) total += value;
  return total;
}

std::string describe(const FaultCounters& counters) {
  std::ostringstream out;
  out << "failed requests " << counters.total_failures() << " (";
  const char* separator = "";
  for (const auto& [code, count] : counters.failures) {
    out << separator << code << ": " << count;
    separator = ", ";
  }
  out << "); delayed " << counters.delayed << "; watches dropped " << counters.watches_dropped << "; expired (410) "
      << counters.expired;
  return out.str();
}

Logger LogTally::logger() {
  return Logger(std::make_shared<const LogSink>([this](const LogRecord& r) { record(r); }));
}

void LogTally::record(const LogRecord& r) {
  const char* level = r.level == LogLevel::Error ? "error" : r.level == LogLevel::Info ? "info" : "debug";
  const std::lock_guard lock(mutex_);
  ++counts_[std::string(level) + " " + r.message];
  if (r.level != LogLevel::Error) return;
  ++errors_;
  if (r.error.find(" is forbidden: ") != std::string::npos) ++forbidden_;
  if (first_errors_.size() < 8) {
    std::string line = r.logger + ": " + r.message + ": " + r.error;
    for (const auto& [key, value] : r.values) {
      if (key == "namespace" || key == "name") line += " " + key + "=" + value;
    }
    first_errors_.push_back(std::move(line));
  }
}

std::uint64_t LogTally::errors() const {
  const std::lock_guard lock(mutex_);
  return errors_;
}

std::uint64_t LogTally::forbidden() const {
  const std::lock_guard lock(mutex_);
  return forbidden_;
}

std::uint64_t LogTally::count(std::string_view message) const {
  const std::lock_guard lock(mutex_);
  std::uint64_t n = 0;
  for (const auto& [key, count] : counts_) {
    if (key.substr(key.find(' ') + 1) == message) n += count;
  }
  return n;
}

std::string LogTally::summary(std::size_t lines) const {
  const std::lock_guard lock(mutex_);
  std::vector<std::pair<std::string, std::uint64_t>> sorted(counts_.begin(), counts_.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  std::ostringstream out;
  for (std::size_t i = 0; i < sorted.size() && i < lines; ++i) {
    out << "    " << sorted[i].second << " x " << sorted[i].first << "\n";
  }
  if (!first_errors_.empty()) out << "  first errors:\n";
  for (const auto& line : first_errors_) out << "    " << line << "\n";
  return out.str();
}

RunningManager::RunningManager(Manager& manager)
    : manager_(manager), code_(result_.get_future().share()), thread_([this] {
        try {
          result_.set_value(manager_.run(stop_.get_token()));
        } catch (...) {
          result_.set_exception(std::current_exception());
        }
      }) {}

RunningManager::~RunningManager() {
  stop_.request_stop();
  if (thread_.joinable()) thread_.join();
  // After an overrun grace period run() returns while runnables still reconcile with the objects
  // of the test's frame, destroyed next: wait for them (bounded, then exit rather than hang).
  if (!manager_.wait_for_runnables(std::chrono::seconds(60))) {
    std::cout << "the manager's runnables still run 60 s after run() returned: exiting without "
                 "destroying what they use\n"
              << std::flush;
    std::_Exit(EXIT_FAILURE);
  }
}

bool RunningManager::finished() const {
  return code_.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

std::optional<int> RunningManager::stop(std::chrono::steady_clock::duration limit) {
  stop_.request_stop();
  if (code_.wait_for(limit) != std::future_status::ready) return std::nullopt;
  return code_.get();
}

}  // namespace rr::e2e
