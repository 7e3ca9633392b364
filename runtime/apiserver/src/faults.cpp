#include "faults.hpp"

#include <thread>
#include <vector>

namespace rr::apiserver_detail {

Status injected_status(int code, const std::string& resource, const std::string& group,
                       const std::string& name, int retry_after_seconds) {
  Status s;
  switch (code) {
    case 409:
      return api_errors::conflict(resource, group, name, api_errors::optimistic_lock_message);
    case 429:
      s.message = "Too many requests, please try again later.";
      s.reason = "TooManyRequests";
      s.retry_after_seconds = retry_after_seconds;
      break;
    case 500:
      return api_errors::internal_error("injected fault");
    case 503:
      s.message = "the server is currently unable to handle the request";
      s.reason = "ServiceUnavailable";
      break;
    case 504:
      s.message = "the server was unable to return a response in the time allotted, but may still be processing the request";
      s.reason = "Timeout";
      break;
    default:
      s.message = "injected fault";
      break;
  }
  s.code = code;
  s.details_name = name;
  s.details_group = group;
  s.details_kind = resource;
  return s;
}

FaultInjector::FaultInjector(FaultOptions options) { set(std::move(options)); }

void FaultInjector::set(FaultOptions options) {
  std::lock_guard lock(mutex_);
  random_.seed(options.seed);
  options_ = std::move(options);
}

FaultOptions FaultInjector::options() const {
  std::lock_guard lock(mutex_);
  return options_;
}

FaultCounters FaultInjector::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

bool FaultInjector::draw(double rate) {
  if (rate <= 0) return false;
  if (rate >= 1) return true;
  return std::uniform_real_distribution<double>(0.0, 1.0)(random_) < rate;
}

std::optional<Status> FaultInjector::before_request(bool write, const std::string& resource,
                                                    const std::string& group, const std::string& name) {
  std::chrono::milliseconds latency{0};
  std::optional<int> code;
  int retry_after = 1;
  {
    std::lock_guard lock(mutex_);
    latency = options_.latency;
    if (latency.count() > 0) ++counters_.delayed;
    std::vector<int> codes;
    for (int c : options_.fail_codes) {
      if (c != 409 || write) codes.push_back(c);
    }
    if (!codes.empty() && draw(options_.fail_rate)) {
      code = codes[std::uniform_int_distribution<std::size_t>(0, codes.size() - 1)(random_)];
      ++counters_.failures[*code];
    }
    retry_after = options_.retry_after_seconds;
  }
  if (latency.count() > 0) std::this_thread::sleep_for(latency);
  if (!code) return std::nullopt;
  return injected_status(*code, resource, group, name, retry_after);
}

bool FaultInjector::expire() {
  std::lock_guard lock(mutex_);
  if (!draw(options_.expire_rate)) return false;
  ++counters_.expired;
  return true;
}

bool FaultInjector::drop_after_event(std::uint64_t sent) {
  std::lock_guard lock(mutex_);
  const bool drop = (options_.drop_watch_after_events > 0 && sent >= options_.drop_watch_after_events) ||
                    draw(options_.drop_watch_rate);
  if (drop) ++counters_.watches_dropped;
  return drop;
}

bool FaultInjector::drop_when_idle() {
  std::lock_guard lock(mutex_);
  const bool drop = draw(options_.drop_watch_rate);
  if (drop) ++counters_.watches_dropped;
  return drop;
}

}  // namespace rr::apiserver_detail
