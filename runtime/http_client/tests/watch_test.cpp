// Watch streams over chunked HTTP: events split across chunks, ERROR events, the end of the
// stream, a non-2xx answer, stop() from another thread.
#include <doctest/doctest.h>

#include <atomic>

#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::reply_json;
using rr_test::status_body;
using std::chrono::milliseconds;

namespace {

const rr::KindInfo kWidgets{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true};

std::string event(const std::string& type, const std::string& name, int rv) {
  return rr::Json{{"type", type},
                  {"object", {{"kind", "Widget"}, {"metadata", {{"name", name}, {"resourceVersion", std::to_string(rv)}}}}}}
             .dump() + "\n";
}

// Streams `pieces` as separate chunks with a pause between them, then either ends the response
// or keeps it open until the server closes.
void stream(rr_test::TestServer& server, std::vector<std::string> pieces, bool keep_open) {
  server.http().Get("/apis/example.dev/v1/namespaces/ns/widgets",
                    [&server, pieces, keep_open](const httplib::Request&, httplib::Response& res) {
    res.set_chunked_content_provider("application/json", [&server, pieces, keep_open](size_t, httplib::DataSink& sink) {
      for (const std::string& p : pieces) {
        if (!sink.write(p.data(), p.size())) return false;
        server.hold(milliseconds(10));
      }
      if (keep_open) server.hold(milliseconds(10000));
      sink.done();
      return true;
    });
  });
}

rr::ListOptions in_ns() {
  rr::ListOptions opts;
  opts.namespace_ = "ns";
  return opts;
}

}  // namespace

TEST_CASE("events split across chunk boundaries arrive whole and in order, the end of the response ends the watch") {
  rr_test::TestServer server;
  const std::string all = event("ADDED", "a", 1) + event("MODIFIED", "a", 2) + event("DELETED", "a", 3) +
                          event("BOOKMARK", "", 4);
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < all.size(); i += 13) pieces.push_back(all.substr(i, 13));
  stream(server, pieces, /*keep_open=*/false);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  rr::ListOptions opts = in_ns();
  opts.resource_version = "0";
  opts.allow_watch_bookmarks = true;
  auto watch = client.watch(kWidgets, opts);
  const rr::WatchEventType expected[] = {rr::WatchEventType::Added, rr::WatchEventType::Modified,
                                         rr::WatchEventType::Deleted, rr::WatchEventType::Bookmark};
  int rv = 1;
  for (const auto type : expected) {
    auto e = watch->next(milliseconds(3000));
    REQUIRE(e);
    CHECK(e->type == type);
    CHECK(e->object["metadata"]["resourceVersion"] == std::to_string(rv++));
  }
  CHECK_FALSE(watch->next(milliseconds(3000)));
  CHECK(watch->stopped());
  const auto seen = server.seen();
  REQUIRE(seen.size() == 1);
  CHECK(seen[0].target ==
        "/apis/example.dev/v1/namespaces/ns/widgets?watch=true&resourceVersion=0&allowWatchBookmarks=true");
}

TEST_CASE("an ERROR event carries the server's Status") {
  rr_test::TestServer server;
  stream(server,
         {R"({"type":"ERROR","object":)" + status_body(410, "Expired", "too old resource version: 1 (9)") + "}\n"},
         /*keep_open=*/false);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  auto watch = client.watch(kWidgets, in_ns());
  auto e = watch->next(milliseconds(3000));
  REQUIRE(e);
  CHECK(e->type == rr::WatchEventType::Error);
  const rr::Status s = rr::Status::from_json(e->object);
  CHECK(rr::is_gone(s));
  CHECK(s.message == "too old resource version: 1 (9)");
}

TEST_CASE("sendInitialEvents is requested with resourceVersionMatch") {
  rr_test::TestServer server;
  stream(server, {event("ADDED", "a", 1)}, /*keep_open=*/false);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  rr::ListOptions opts = in_ns();
  opts.send_initial_events = true;
  opts.resource_version_match = "NotOlderThan";
  opts.allow_watch_bookmarks = true;
  opts.timeout_seconds = 300;
  auto watch = client.watch(kWidgets, opts);
  CHECK(watch->next(milliseconds(3000)));
  CHECK(server.seen().at(0).target ==
        "/apis/example.dev/v1/namespaces/ns/widgets?watch=true&resourceVersionMatch=NotOlderThan&timeoutSeconds=300"
        "&allowWatchBookmarks=true&sendInitialEvents=true");
}

TEST_CASE("a non-2xx answer to the watch request throws, 5xx is retried first") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Get("/apis/example.dev/v1/namespaces/ns/widgets", [&](const httplib::Request&, httplib::Response& res) {
    if (++attempts == 1) {
      res.status = 500;
      return;
    }
    reply_json(res, 410, status_body(410, "Expired", "too old"));
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  try {
    client.watch(kWidgets, in_ns());
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(rr::is_gone(e.status()));
    CHECK(e.status().message == "too old");
  }
  CHECK(attempts == 2);
}

TEST_CASE("stop() from another thread ends a blocked next() and the transfer promptly") {
  rr_test::TestServer server;
  stream(server, {event("ADDED", "a", 1)}, /*keep_open=*/true);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  auto watch = client.watch(kWidgets, in_ns());
  REQUIRE(watch->next(milliseconds(3000)));
  CHECK_FALSE(watch->stopped());

  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(50));
    watch->stop();
  });
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(watch->next(milliseconds(5000)));
  stopper.join();
  CHECK(watch->stopped());
  watch.reset();  // joins the reader thread: the transfer must be over already
  CHECK(std::chrono::steady_clock::now() - t0 < milliseconds(500));
}

TEST_CASE("next() times out without ending the stream") {
  rr_test::TestServer server;
  stream(server, {}, /*keep_open=*/true);
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  auto watch = client.watch(kWidgets, in_ns());
  CHECK_FALSE(watch->next(milliseconds(30)));
  CHECK_FALSE(watch->stopped());
}
