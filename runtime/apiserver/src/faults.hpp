// Draws the faults FaultOptions asks for, under one mutex with one seeded generator, and counts
// what it injected.
#pragma once
#include <cstdint>
#include <mutex>
#include <optional>
#include <random>
#include <string>

#include "rr/apiserver/fault_injection.hpp"
#include "rr/client/api_error.hpp"

namespace rr::apiserver_detail {

class FaultInjector {
 public:
  explicit FaultInjector(FaultOptions options);

  void set(FaultOptions options);
  FaultOptions options() const;
  FaultCounters counters() const;

  // Before a resource request other than a watch: sleeps the configured latency, then returns
  // the Status to fail it with, if one is drawn. `write`: 409 may be drawn.
  std::optional<Status> before_request(bool write, const std::string& resource, const std::string& group,
                                       const std::string& name);
  // A list or watch naming a resourceVersion: true when it is to be answered 410 Expired.
  bool expire();
  // After a watch stream sent its `sent`-th event: true when the stream is to be cut now.
  bool drop_after_event(std::uint64_t sent);
  // After a watch stream was idle for a second: true when it is to be cut now.
  bool drop_when_idle();

 private:
  bool draw(double rate);  // under mutex_

  mutable std::mutex mutex_;
  FaultOptions options_;
  std::mt19937_64 random_;
  FaultCounters counters_;
};

// The Status an injected failure with this HTTP code carries.
Status injected_status(int code, const std::string& resource, const std::string& group,
                       const std::string& name, int retry_after_seconds);

}  // namespace rr::apiserver_detail
