// The classic queue: FIFO, dedup of dirty and processing keys, shutdown, metrics hooks.
#include <doctest/doctest.h>

#include <future>
#include <string>
#include <vector>

#include "test_util.hpp"

using namespace std::chrono_literals;
using rr::test::key;

TEST_CASE("work queue: keys come out in FIFO order") {
  rr::WorkQueue q;
  q.add(key("a"));
  q.add(key("b"));
  q.add(key("c"));
  CHECK(q.len() == 3);
  CHECK(q.get() == key("a"));
  CHECK(q.get() == key("b"));
  CHECK(q.get() == key("c"));
  CHECK(q.len() == 0);
}

TEST_CASE("work queue: a key already queued is not queued twice") {
  rr::WorkQueue q;
  q.add(key("a"));
  q.add(key("b"));
  q.add(key("a"));
  CHECK(q.len() == 2);
  CHECK(q.get() == key("a"));  // keeps its first place
  CHECK(q.get() == key("b"));
  CHECK(q.len() == 0);
}

TEST_CASE("work queue: a key re-added while processing comes back exactly once, after done()") {
  rr::WorkQueue q;
  q.add(key("a"));
  REQUIRE(q.get() == key("a"));
  q.add(key("a"));
  q.add(key("a"));
  q.add(key("b"));
  CHECK(q.len() == 1);  // only b: a is being processed, so it is not handed to a second worker
  CHECK(q.get() == key("b"));
  CHECK(q.len() == 0);
  q.done(key("a"));
  CHECK(q.len() == 1);
  CHECK(q.get() == key("a"));
  q.done(key("a"));
  q.done(key("b"));
  CHECK(q.len() == 0);
}

TEST_CASE("work queue: done() of a key that was not re-added does not queue it") {
  rr::WorkQueue q;
  q.add(key("a"));
  REQUIRE(q.get() == key("a"));
  q.done(key("a"));
  CHECK(q.len() == 0);
  q.done(key("never-handed-out"));  // ignored
  CHECK(q.len() == 0);
}

TEST_CASE("work queue: shut_down() wakes blocked getters, which return nullopt") {
  rr::WorkQueue q;
  auto g1 = std::async(std::launch::async, [&] { return q.get(); });
  auto g2 = std::async(std::launch::async, [&] { return q.get(); });
  CHECK_FALSE(rr::test::finishes_within(g1, 30ms));  // blocked: nothing queued
  q.shut_down();
  REQUIRE(rr::test::finishes_within(g1, 5000ms));
  REQUIRE(rr::test::finishes_within(g2, 5000ms));
  CHECK_FALSE(g1.get().has_value());
  CHECK_FALSE(g2.get().has_value());
  CHECK(q.shutting_down());
}

TEST_CASE("work queue: after shut_down() queued keys are still handed out and adds are ignored") {
  rr::WorkQueue q;
  q.add(key("a"));
  q.shut_down();
  q.add(key("b"));
  CHECK(q.len() == 1);
  CHECK(q.get() == key("a"));
  CHECK_FALSE(q.get().has_value());
}

TEST_CASE("work queue: shut_down_with_drain() waits until keys handed out are done") {
  rr::WorkQueue q;
  q.add(key("a"));
  q.add(key("b"));
  REQUIRE(q.get() == key("a"));
  REQUIRE(q.get() == key("b"));
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  CHECK_FALSE(rr::test::finishes_within(drain, 50ms));
  q.done(key("a"));
  CHECK_FALSE(rr::test::finishes_within(drain, 50ms));  // b is still in flight
  q.done(key("b"));
  CHECK(rr::test::finishes_within(drain, 5000ms));
  CHECK_FALSE(q.get().has_value());
}

TEST_CASE("work queue: shut_down_with_drain() returns at once when nothing is in flight") {
  rr::WorkQueue q;
  auto drain = std::async(std::launch::async, [&] { q.shut_down_with_drain(); });
  CHECK(rr::test::finishes_within(drain, 5000ms));
}

namespace {
struct RecordingMetrics : rr::WorkQueueMetrics {
  int adds = 0, retries = 0;
  std::vector<std::size_t> depths;
  std::vector<double> latencies, durations;
  double unfinished = -1, longest = -1;
  void add() override { ++adds; }
  void set_depth(std::size_t d) override { depths.push_back(d); }
  void observe_queue_latency(double s) override { latencies.push_back(s); }
  void observe_work_duration(double s) override { durations.push_back(s); }
  void retry() override { ++retries; }
  void set_unfinished_work(double s) override { unfinished = s; }
  void set_longest_running_processor(double s) override { longest = s; }
};
}  // namespace

TEST_CASE("work queue: metrics hooks see adds, depth, latencies, retries and unfinished work") {
  rr::FakeClock clock;
  auto metrics = std::make_shared<RecordingMetrics>();
  rr::WorkQueueOptions options = rr::test::on(clock);
  options.metrics = metrics;
  rr::WorkQueue q(std::move(options));

  q.add(key("a"));
  q.add(key("a"));  // deduplicated: not an add
  q.add(key("b"));
  CHECK(metrics->adds == 2);
  CHECK(metrics->depths == std::vector<std::size_t>{1, 2});

  clock.advance(2s);
  REQUIRE(q.get() == key("a"));
  CHECK(metrics->depths.back() == 1);
  REQUIRE(metrics->latencies.size() == 1);
  CHECK(metrics->latencies[0] == doctest::Approx(2.0));

  clock.advance(3s);
  REQUIRE(q.get() == key("b"));
  clock.advance(1s);
  q.update_unfinished_work();
  CHECK(metrics->unfinished == doctest::Approx(4.0 + 1.0));
  CHECK(metrics->longest == doctest::Approx(4.0));

  q.done(key("a"));
  REQUIRE(metrics->durations.size() == 1);
  CHECK(metrics->durations[0] == doctest::Approx(4.0));

  q.add_rate_limited(key("b"));
  q.add_after(key("c"), 1s);
  CHECK(metrics->retries == 2);
}
