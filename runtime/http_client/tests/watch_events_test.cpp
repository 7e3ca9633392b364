#include <doctest/doctest.h>

#include <atomic>
#include <thread>

#include "watch_events.hpp"

using namespace rr::http_detail;
using std::chrono::milliseconds;

TEST_CASE("events split at any byte boundary come out whole") {
  const std::string stream =
      R"({"type":"ADDED","object":{"metadata":{"name":"a","resourceVersion":"1"}}})" "\n"
      R"({"type":"MODIFIED","object":{"metadata":{"name":"a","resourceVersion":"2"}}})" "\r\n"
      "\n"
      R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"3"}}})" "\n";
  for (std::size_t piece : {1U, 2U, 7U, 64U, 1000U}) {
    WatchEventQueue queue;
    for (std::size_t i = 0; i < stream.size(); i += piece) CHECK(queue.feed(stream.substr(i, piece)));
    auto e = queue.next(milliseconds(0));
    REQUIRE(e);
    CHECK(e->type == rr::WatchEventType::Added);
    CHECK(e->object["metadata"]["name"] == "a");
    e = queue.next(milliseconds(0));
    REQUIRE(e);
    CHECK(e->type == rr::WatchEventType::Modified);
    e = queue.next(milliseconds(0));
    REQUIRE(e);
    CHECK(e->type == rr::WatchEventType::Bookmark);
    CHECK_FALSE(queue.next(milliseconds(0)));
    CHECK_FALSE(queue.stopped());  // no end yet: only a timeout
    queue.finish();
    CHECK(queue.stopped());
  }
}

TEST_CASE("an unterminated last line is decoded when the stream ends, queued events drain first") {
  WatchEventQueue queue;
  queue.feed(R"({"type":"DELETED","object":{"metadata":{"name":"x"}}})" "\n" R"({"type":"ERROR","object":{"kind":"Status","code":410,"reason":"Expired"}})");
  queue.finish();
  CHECK_FALSE(queue.stopped());
  auto e = queue.next(milliseconds(0));
  REQUIRE(e);
  CHECK(e->type == rr::WatchEventType::Deleted);
  e = queue.next(milliseconds(0));
  REQUIRE(e);
  CHECK(e->type == rr::WatchEventType::Error);
  CHECK(e->object["code"] == 410);
  CHECK_FALSE(queue.next(milliseconds(0)));
  CHECK(queue.stopped());
}

TEST_CASE("a malformed event becomes an ERROR with a 500 Status and ends the stream") {
  WatchEventQueue queue;
  CHECK_FALSE(queue.feed("{\"type\":\"ADDED\"}\n{\"type\":\"ADDED\",\"object\":{}}\n"));
  auto e = queue.next(milliseconds(0));
  REQUIRE(e);
  CHECK(e->type == rr::WatchEventType::Error);
  CHECK(e->object["code"] == 500);
  CHECK_FALSE(queue.next(milliseconds(0)));
  CHECK(queue.stopped());
  CHECK(decode_event("{\"type\":\"RENAMED\",\"object\":{}}").malformed);
  CHECK(decode_event("not json").malformed);
}

TEST_CASE("stop() wakes a blocked next() and drops queued events") {
  WatchEventQueue queue;
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(20));
    queue.stop();
  });
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(queue.next(milliseconds(5000)));
  CHECK(std::chrono::steady_clock::now() - t0 < milliseconds(2000));
  stopper.join();
  CHECK(queue.stopped());
  CHECK(queue.stop_requested());
  CHECK_FALSE(queue.feed("{\"type\":\"ADDED\",\"object\":{}}\n"));
  CHECK_FALSE(queue.next(milliseconds(0)));
}

TEST_CASE("a full queue holds feed() until next() takes an event, and stop() releases it") {
  const std::string event = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                            "\n";
  WatchEventQueue queue(2);
  CHECK(queue.feed(event));
  CHECK(queue.feed(event));  // two queued: the bound
  std::atomic<bool> fed{false};
  std::thread feeder([&] {
    CHECK(queue.feed(event));
    fed = true;
  });
  std::this_thread::sleep_for(milliseconds(50));
  CHECK_FALSE(fed.load());  // waits for room
  REQUIRE(queue.next(milliseconds(0)));
  feeder.join();
  CHECK(fed.load());

  std::thread blocked([&] { CHECK_FALSE(queue.feed(event)); });  // full again: waits, then stop
  std::this_thread::sleep_for(milliseconds(20));
  queue.stop();
  blocked.join();
}

TEST_CASE("with hold_when_full off, feed() never waits (the consumer's own thread feeds while a watch opens)") {
  const std::string event = R"({"type":"ADDED","object":{"metadata":{"name":"a"}}})"
                            "\n";
  WatchEventQueue queue(2);
  queue.hold_when_full(false);
  for (int i = 0; i < 5; ++i) CHECK(queue.feed(event));  // past the bound, on this thread
  queue.hold_when_full(true);
  std::atomic<bool> fed{false};
  std::thread feeder([&] {
    CHECK(queue.feed(event));
    fed = true;
  });
  std::this_thread::sleep_for(milliseconds(50));
  CHECK_FALSE(fed.load());  // five queued: held again until there is room
  for (int i = 0; i < 4; ++i) REQUIRE(queue.next(milliseconds(0)));
  feeder.join();
  CHECK(fed.load());
}
