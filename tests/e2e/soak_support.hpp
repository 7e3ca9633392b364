// Helpers of the soak test (soak_test.cpp): parameters from the environment, retries of the test's
// own API calls through injected faults, polling, reading counters from the manager's metrics
// exposition, a log sink that tallies what the operator logged, and the operator's manager run
// on a thread that is always stopped and joined.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "rr/reconcilers/logger.hpp"

namespace rr {
class Manager;
struct FaultCounters;
struct Status;
}  // namespace rr

namespace rr::e2e {

// The environment variable `name` as a non-negative integer, or `fallback` when unset or not one.
long env_number(const char* name, long fallback);

// Calls `call` until it returns normally. An rr::ApiError (an injected 500, 429, 409 the client
// did not retry away) is retried after a short pause, at most `attempts` times in all; when
// `done_on` says the error means the work is done already (AlreadyExists on a create whose first
// answer was lost, NotFound on a delete), that ends it too. Other exceptions propagate.
// Returns the number of retries it took.
int with_retries(const std::function<void()>& call, int attempts = 50,
                 const std::function<bool(const Status&)>& done_on = {});

// Polls `done` every `every` until it is true or `timeout` passes; calls `progress` about every
// ten seconds (for a long wait's log). Returns done's last answer.
bool poll_until(const std::function<bool()>& done, std::chrono::steady_clock::duration timeout,
                std::chrono::milliseconds every = std::chrono::milliseconds(250),
                const std::function<void()>& progress = {});

// Samples of a counter or gauge in Prometheus text format, summed by the value of `label`
// (all samples of `metric` whose label set contains `filter`, e.g. controller="webapp").
std::map<std::string, double> samples_by_label(std::string_view exposition, std::string_view metric,
                                               std::string_view label, std::string_view filter = {});
double sum_of(const std::map<std::string, double>& samples);

// "500: 12, 429: 7, 409: 3; delayed 9000; watches dropped 40; expired 25"
std::string describe(const FaultCounters& counters);

// A log sink that counts records by level and message and keeps the first few errors whole.
class LogTally {
 public:
  Logger logger();
  std::uint64_t errors() const;
  // Errors whose text is a 403 of the API server ("... is forbidden: ...").
  std::uint64_t forbidden() const;
  std::uint64_t count(std::string_view message) const;
  // "error Reconciler error: 37; info updating status: 2900; ..." most frequent first, and the
  // first errors with their text.
  std::string summary(std::size_t lines = 12) const;

 private:
  void record(const LogRecord& record);
  mutable std::mutex mutex_;
  std::map<std::string, std::uint64_t> counts_;  // "<level> <message>"
  std::uint64_t errors_ = 0;
  std::uint64_t forbidden_ = 0;
  std::vector<std::string> first_errors_;
};

// Manager::run on its own thread; the destructor requests the stop and joins it, so a failed
// REQUIRE cannot leave the operator running. It then waits for the runnables that outlived run()
// (an overrun grace period), up to 60 s, before the test's objects are destroyed under them; past
// that it ends the process with _Exit(1).
class RunningManager {
 public:
  explicit RunningManager(Manager& manager);
  ~RunningManager();
  RunningManager(const RunningManager&) = delete;
  RunningManager& operator=(const RunningManager&) = delete;

  // True once run() has returned (a failure or a lost lease ends it early).
  bool finished() const;
  // Requests the stop and waits up to `limit` for run() to return: its exit code, or nullopt.
  std::optional<int> stop(std::chrono::steady_clock::duration limit);

 private:
  Manager& manager_;
  std::stop_source stop_;
  std::promise<int> result_;
  std::shared_future<int> code_;
  std::thread thread_;
};

}  // namespace rr::e2e
