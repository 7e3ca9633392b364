// add_after / add_rate_limited on a fake clock: no test here sleeps for the delays it checks.
#include <doctest/doctest.h>

#include <future>

#include "test_util.hpp"

using namespace std::chrono_literals;
using rr::test::key;

TEST_CASE("delaying queue: a key added after a delay is ready exactly when the delay has passed") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 10s);
  CHECK(q.len() == 0);
  clock.advance(9s);
  CHECK(q.len() == 0);
  clock.advance(1s);
  CHECK(q.len() == 1);
  CHECK(q.get() == key("a"));
}

TEST_CASE("delaying queue: a zero or negative delay adds at once") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 0s);
  q.add_after(key("b"), -1s);
  CHECK(q.len() == 2);
}

TEST_CASE("delaying queue: an earlier deadline replaces a later one, a later one is ignored") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 10s);
  q.add_after(key("a"), 2s);  // earlier: wins
  q.add_after(key("b"), 2s);
  q.add_after(key("b"), 10s);  // later: ignored
  clock.advance(2s);
  CHECK(q.len() == 2);
  CHECK(q.get() == key("a"));
  CHECK(q.get() == key("b"));
  q.done(key("a"));
  q.done(key("b"));
  clock.advance(8s);  // the 10 s deadlines were replaced or dropped: nothing more comes
  CHECK(q.len() == 0);
}

TEST_CASE("delaying queue: waiting keys come out in order of ready time") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("late"), 5s);
  q.add_after(key("early"), 3s);
  q.add_after(key("tie"), 5s);
  clock.advance(5s);
  CHECK(q.get() == key("early"));
  CHECK(q.get() == key("late"));
  CHECK(q.get() == key("tie"));
}

TEST_CASE("delaying queue: a plain add() of a waiting key queues it now; the timer still fires (as client-go)") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 10s);
  q.add(key("a"));
  CHECK(q.len() == 1);
  REQUIRE(q.get() == key("a"));
  q.done(key("a"));
  CHECK(q.len() == 0);
  clock.advance(10s);
  CHECK(q.len() == 1);  // the earlier add_after is not cancelled by add()

  // While the key is still queued (dirty), the firing timer is deduplicated.
  q.add_after(key("b"), 1s);
  q.add(key("b"));
  clock.advance(1s);
  CHECK(q.len() == 2);  // a and b, b once
}

TEST_CASE("delaying queue: a blocked get() is woken when the fake clock reaches the deadline") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 1h);
  auto got = std::async(std::launch::async, [&] { return q.get(); });
  CHECK_FALSE(rr::test::finishes_within(got, 30ms));
  clock.advance(30min);
  CHECK_FALSE(rr::test::finishes_within(got, 30ms));
  q.add_after(key("b"), 1min);  // a new earliest deadline while get() waits
  clock.advance(1min);
  REQUIRE(rr::test::finishes_within(got, 5000ms));
  CHECK(got.get() == key("b"));
}

TEST_CASE("delaying queue: with the real clock a blocked get() wakes at the deadline") {
  rr::WorkQueue q;
  const auto start = std::chrono::steady_clock::now();
  q.add_after(key("a"), 20ms);
  CHECK(q.get() == key("a"));
  CHECK(std::chrono::steady_clock::now() - start >= 20ms);
}

TEST_CASE("delaying queue: shutdown drops waiting keys") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_after(key("a"), 1s);
  q.shut_down();
  q.add_after(key("b"), 0s);  // ignored after shutdown
  clock.advance(2s);
  CHECK(q.len() == 0);
  CHECK_FALSE(q.get().has_value());
}

TEST_CASE("rate-limited queue: add_rate_limited backs off per key; forget resets it") {
  rr::FakeClock clock;
  rr::WorkQueue q(rr::test::on(clock));
  q.add_rate_limited(key("a"));  // 5 ms
  CHECK(q.num_requeues(key("a")) == 1);
  clock.advance(4ms);
  CHECK(q.len() == 0);
  clock.advance(1ms);
  REQUIRE(q.get() == key("a"));
  q.add_rate_limited(key("a"));  // 10 ms, marked while processing
  q.done(key("a"));
  CHECK(q.num_requeues(key("a")) == 2);
  clock.advance(9ms);
  CHECK(q.len() == 0);
  clock.advance(1ms);
  CHECK(q.len() == 1);
  q.forget(key("a"));
  CHECK(q.num_requeues(key("a")) == 0);
  REQUIRE(q.get() == key("a"));
  q.add_rate_limited(key("a"));  // back to 5 ms
  q.done(key("a"));
  clock.advance(5ms);
  CHECK(q.len() == 1);
}
