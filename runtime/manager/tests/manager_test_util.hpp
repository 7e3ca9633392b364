// Helpers for the manager's run tests: a scriptable Runnable, a log capture, polling, HTTP GETs.
#pragma once
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "rr/controller/runnable.hpp"
#include "rr/manager/manager.hpp"

namespace rr::test {

// Records the order of events across runnables ("a:stop", ...).
class Journal {
 public:
  void add(std::string event) {
    const std::lock_guard lock(mutex_);
    events_.push_back(std::move(event));
  }
  std::vector<std::string> events() const {
    const std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> events_;
};

// Runs until stopped; then lingers `stop_delay` (a controller finishing its reconciles), or
// throws when `fail` is set (at once, without waiting for the stop).
class FakeRunnable : public Runnable {
 public:
  FakeRunnable(std::string name, bool needs_leader) : name_(std::move(name)), needs_leader_(needs_leader) {}

  std::string name() const override { return name_; }
  bool needs_leader_election() const override { return needs_leader_; }
  bool ready() const override { return is_ready.load(); }

  void start(std::stop_token stop) override {
    starts.fetch_add(1);
    running = true;
    if (journal) journal->add(name_ + ":start");
    std::unique_lock lock(mutex_);
    cv_.wait(lock, stop, [this] { return fail.load(); });
    lock.unlock();
    if (fail) {
      running = false;
      throw std::runtime_error(name_ + " broke");
    }
    if (journal) journal->add(name_ + ":stop");
    std::this_thread::sleep_for(stop_delay);
    running = false;
    returned = true;
  }

  // Makes a running start() throw.
  void break_now() {
    {
      const std::lock_guard lock(mutex_);
      fail = true;
    }
    cv_.notify_all();
  }

  std::atomic<bool> is_ready{true};
  std::atomic<int> starts{0};
  std::atomic<bool> running{false};
  std::atomic<bool> returned{false};
  std::atomic<bool> fail{false};
  std::chrono::milliseconds stop_delay{0};
  std::shared_ptr<Journal> journal;

 private:
  std::string name_;
  bool needs_leader_;
  std::mutex mutex_;
  std::condition_variable_any cv_;
};

// Log records kept for assertions; shared so that late runnable threads may still log.
class LogCapture {
 public:
  Logger logger() {
    auto records = records_;
    auto mutex = mutex_;
    return Logger(std::make_shared<const LogSink>([records, mutex](const LogRecord& record) {
      const std::lock_guard lock(*mutex);
      records->push_back(record);
    }));
  }
  bool has(const std::string& message, const std::string& error_part = "") const {
    const std::lock_guard lock(*mutex_);
    for (const LogRecord& r : *records_) {
      if (r.message == message && r.error.find(error_part) != std::string::npos) return true;
    }
    return false;
  }

 private:
  std::shared_ptr<std::vector<LogRecord>> records_ = std::make_shared<std::vector<LogRecord>>();
  std::shared_ptr<std::mutex> mutex_ = std::make_shared<std::mutex>();
};

inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::milliseconds(5000)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return condition();
}

struct HttpReply {
  int status = 0;  // 0: no connection
  std::string body;
  std::string content_type;
};

inline HttpReply http_get(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(2);
  client.set_read_timeout(5);
  const auto result = client.Get(path.c_str());
  if (!result) return {};
  return {result->status, result->body, result->get_header_value("Content-Type")};
}

// Options for a test manager: loopback, ephemeral ports, no leader election, plain-HTTP metrics
// (the secure endpoint has its own tests: manager_secure_metrics_test.cpp).
inline ManagerOptions loopback_options() {
  ManagerOptions options;
  options.metrics_bind_address = "127.0.0.1:0";
  options.metrics_secure = false;
  options.health_probe_bind_address = "127.0.0.1:0";
  options.graceful_shutdown_timeout = std::chrono::seconds(5);
  return options;
}

// run() on a thread of its own; stop() requests the stop and returns run's exit code.
class Running {
 public:
  explicit Running(Manager& manager)
      : thread_([this, &manager](std::stop_token stop) {
          code_ = manager.run(stop);
          done_ = true;
        }) {}
  int stop() {
    thread_.request_stop();
    thread_.join();
    return code_;
  }
  // Waits for run() to return by itself (failure, lease lost).
  int wait() {
    thread_.join();
    return code_;
  }
  bool done() const { return done_.load(); }

 private:
  std::atomic<int> code_{-1};
  std::atomic<bool> done_{false};
  std::jthread thread_;
};

}  // namespace rr::test
