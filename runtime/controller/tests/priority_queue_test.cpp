// The work queue with priorities (controller-runtime's priorityqueue): order, dedup, raise,
// delayed keys, the depth metric per priority, shutdown.
#include <doctest/doctest.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

#include "test_util.hpp"

using namespace std::chrono_literals;
using rr::test::key;

namespace {

rr::WorkQueueOptions with_priorities(rr::Clock* clock = nullptr) {
  rr::WorkQueueOptions options;
  options.clock = clock;
  options.priorities = true;
  return options;
}

std::vector<std::string> drain(rr::WorkQueue& q) {
  std::vector<std::string> names;
  while (q.len() > 0) {
    auto item = q.get();
    names.push_back(item->name);
    q.done(*item);
  }
  return names;
}

}  // namespace

TEST_CASE("priority queue: higher priorities first, FIFO within a priority") {
  rr::WorkQueue q(with_priorities());
  q.add(key("low1"), rr::kLowPriority);
  q.add(key("a"));
  q.add(key("low2"), rr::kLowPriority);
  q.add(key("urgent"), 10);
  q.add(key("b"), 0);
  CHECK(drain(q) == std::vector<std::string>{"urgent", "a", "b", "low1", "low2"});
}

TEST_CASE("priority queue: get_with_priority tells the priority the key was queued at") {
  rr::WorkQueue q(with_priorities());
  q.add(key("a"), rr::kLowPriority);
  auto item = q.get_with_priority();
  REQUIRE(item);
  CHECK(item->key == key("a"));
  CHECK(item->priority == rr::kLowPriority);
}

TEST_CASE("priority queue: a queued key is deduplicated and keeps the higher priority") {
  rr::WorkQueue q(with_priorities());
  q.add(key("x"), rr::kLowPriority);
  q.add(key("y"), rr::kLowPriority);
  q.add(key("z"));
  q.add(key("x"), rr::kLowPriority);  // same priority: stays where it is
  q.add(key("y"), -200);              // lower: ignored
  CHECK(q.len() == 3);
  q.add(key("y"));  // raised: behind z, the key already at 0
  auto first = q.get_with_priority();
  auto second = q.get_with_priority();
  auto third = q.get_with_priority();
  CHECK(first->key == key("z"));
  CHECK(second->key == key("y"));
  CHECK(second->priority == 0);
  CHECK(third->key == key("x"));
  CHECK(third->priority == rr::kLowPriority);
  CHECK(q.len() == 0);
}

TEST_CASE("priority queue: a key re-added while processing returns once, at the higher priority") {
  rr::WorkQueue q(with_priorities());
  q.add(key("a"), rr::kLowPriority);
  REQUIRE(q.get() == key("a"));
  q.add(key("a"), rr::kLowPriority);
  q.add(key("a"), 5);
  q.add(key("b"), 1);
  CHECK(q.len() == 1);  // a waits for done()
  q.done(key("a"));
  auto item = q.get_with_priority();
  CHECK(item->key == key("a"));
  CHECK(item->priority == 5);
  CHECK(q.get() == key("b"));
}

TEST_CASE("priority queue: delayed and rate-limited adds carry their priority") {
  rr::FakeClock clock;
  rr::WorkQueue q(with_priorities(&clock));
  q.add(key("plain"));
  q.add_after(key("later"), 1s, 7);
  q.add_after(key("later"), 5s, 9);  // later ready time loses, higher priority wins
  q.add_rate_limited(key("retry"), 3);
  CHECK(q.len() == 1);
  clock.advance(1s);
  CHECK(q.len() == 3);
  auto first = q.get_with_priority();
  auto second = q.get_with_priority();
  CHECK(first->key == key("later"));
  CHECK(first->priority == 9);
  CHECK(second->key == key("retry"));
  CHECK(second->priority == 3);
  CHECK(q.get() == key("plain"));
}

TEST_CASE("priority queue: without priorities every key is one FIFO") {
  rr::WorkQueue q;  // WorkQueueOptions::priorities defaults to false
  q.add(key("low"), rr::kLowPriority);
  q.add(key("high"), 10);
  auto item = q.get_with_priority();
  CHECK(item->key == key("low"));
  CHECK(item->priority == 0);
  CHECK(q.get() == key("high"));
}

TEST_CASE("priority queue: shutdown hands out what is queued, in priority order, then ends") {
  rr::WorkQueue q(with_priorities());
  q.add(key("low"), rr::kLowPriority);
  q.add(key("high"));
  q.shut_down();
  q.add(key("ignored"), 100);
  CHECK(q.get() == key("high"));
  CHECK(q.get() == key("low"));
  CHECK_FALSE(q.get());
}

TEST_CASE("priority queue: a getter blocked on an empty queue wakes at shutdown") {
  rr::WorkQueue q(with_priorities());
  std::optional<rr::WorkQueue::Item> got{rr::WorkQueue::Item{}};
  std::thread getter([&] { got = q.get_with_priority(); });
  std::this_thread::sleep_for(20ms);
  q.shut_down();
  getter.join();
  CHECK_FALSE(got);
}

namespace {
struct DepthByPriority : rr::WorkQueueMetrics {
  std::map<int, int> depth;
  int plain_depth_calls = 0;
  void set_depth(std::size_t) override { ++plain_depth_calls; }
  void change_depth(int priority, int delta) override { depth[priority] += delta; }
};
}  // namespace

TEST_CASE("priority queue: the depth metric counts queued keys per priority") {
  auto metrics = std::make_shared<DepthByPriority>();
  rr::WorkQueueOptions options = with_priorities();
  options.metrics = metrics;
  rr::WorkQueue q(std::move(options));
  q.add(key("a"), rr::kLowPriority);
  q.add(key("b"), rr::kLowPriority);
  q.add(key("c"));
  CHECK(metrics->depth == std::map<int, int>{{rr::kLowPriority, 2}, {0, 1}});
  q.add(key("a"), 0);  // raised
  CHECK(metrics->depth == std::map<int, int>{{rr::kLowPriority, 1}, {0, 2}});
  REQUIRE(q.get() == key("c"));
  REQUIRE(q.get() == key("a"));
  CHECK(metrics->depth == std::map<int, int>{{rr::kLowPriority, 1}, {0, 0}});
  CHECK(metrics->plain_depth_calls == 0);
}
