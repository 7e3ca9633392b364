// AsyncEventRecorder: record() never waits for a write; the writer keeps the order; the queue is
// bounded; close() writes what is queued within its grace period and drops the rest.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "async_event_recorder.hpp"

using namespace std::chrono_literals;
using rr::controller_detail::AsyncEventRecorder;

namespace {

// An inner recorder whose writes wait until the test opens its gate (a slow or throttled server).
struct GatedRecorder final : rr::EventRecorder {
  std::mutex mutex;
  std::condition_variable changed;
  bool open = false;
  std::atomic<int> started{0};
  std::vector<std::string> written;

  void record(const rr::Event& event) override {
    std::unique_lock lock(mutex);
    ++started;
    changed.notify_all();
    changed.wait(lock, [this] { return open; });
    written.push_back(event.reason);
  }
  void release() {
    const std::lock_guard lock(mutex);
    open = true;
    changed.notify_all();
  }
  bool wait_started(int n) {
    std::unique_lock lock(mutex);
    return changed.wait_for(lock, 5s, [&] { return started.load() >= n; });
  }
  std::vector<std::string> reasons() {
    const std::lock_guard lock(mutex);
    return written;
  }
};

rr::Event event(std::string reason) { return rr::Event{{"v1", "ConfigMap", "ns", "cm", "uid", "1"}, "Normal", std::move(reason), "m"}; }

}  // namespace

TEST_CASE("AsyncEventRecorder: record() returns while a write waits, and the writer keeps the order") {
  auto inner = std::make_shared<GatedRecorder>();
  AsyncEventRecorder recorder(inner, rr::Logger());
  recorder.record(event("A"));
  REQUIRE(inner->wait_started(1));  // the writer holds A, blocked on the server
  const auto before = std::chrono::steady_clock::now();
  recorder.record(event("B"));
  recorder.record(event("C"));
  CHECK(std::chrono::steady_clock::now() - before < 1s);  // not behind A's write
  CHECK(inner->reasons().empty());
  inner->release();
  recorder.close(5s);
  CHECK(inner->reasons() == std::vector<std::string>{"A", "B", "C"});
  CHECK(recorder.dropped() == 0);
}

TEST_CASE("AsyncEventRecorder: a full queue drops the newest events and counts them") {
  auto inner = std::make_shared<GatedRecorder>();
  AsyncEventRecorder recorder(inner, rr::Logger(), 2);
  recorder.record(event("A"));
  REQUIRE(inner->wait_started(1));  // A is being written; the queue holds 2 more
  recorder.record(event("B"));
  recorder.record(event("C"));
  recorder.record(event("D"));
  recorder.record(event("E"));
  CHECK(recorder.dropped() == 2);
  inner->release();
  recorder.close(5s);
  CHECK(inner->reasons() == std::vector<std::string>{"A", "B", "C"});
  recorder.record(event("F"));  // after close: dropped, never written
  CHECK(recorder.dropped() == 3);
  CHECK(inner->reasons().size() == 3);
}

TEST_CASE("AsyncEventRecorder: close() finishes the write in progress and drops what is left past the grace") {
  auto inner = std::make_shared<GatedRecorder>();
  AsyncEventRecorder recorder(inner, rr::Logger());
  recorder.record(event("A"));
  REQUIRE(inner->wait_started(1));
  recorder.record(event("B"));
  recorder.record(event("C"));
  std::thread opener([&] {
    std::this_thread::sleep_for(200ms);  // past the zero grace: B and C must not be written
    inner->release();
  });
  recorder.close(0s);  // returns only once A's write has finished
  opener.join();
  CHECK(inner->reasons() == std::vector<std::string>{"A"});
  CHECK(recorder.dropped() == 2);
}

TEST_CASE("AsyncEventRecorder: the destructor joins the writer") {
  auto inner = std::make_shared<GatedRecorder>();
  inner->release();
  {
    AsyncEventRecorder recorder(inner, rr::Logger());
    recorder.record(event("A"));
    recorder.close(5s);
  }
  CHECK(inner->reasons() == std::vector<std::string>{"A"});
  { AsyncEventRecorder unused(inner, rr::Logger()); }  // never recorded, never closed
  CHECK(inner->reasons().size() == 1);
}
