// A reconcile's deadline (rr::CallDeadline) bounds the HTTP client's requests and retries.
#include <doctest/doctest.h>

#include <atomic>

#include "rr/client/call_deadline.hpp"
#include "test_server.hpp"

using namespace std::chrono_literals;

namespace {

// The ApiError a call throws; fails the test when it does not throw one.
template <class F>
rr::ApiError api_error_of(F&& call) {
  try {
    call();
  } catch (const rr::ApiError& e) {
    return e;
  }
  FAIL("expected an ApiError");
  return rr::ApiError(rr::Status{});
}

}  // namespace

TEST_CASE("call deadline: a slow answer is cut off at the deadline with context deadline exceeded") {
  rr_test::TestServer server;
  server.http().Get("/version", [&](const httplib::Request&, httplib::Response& res) {
    server.hold(3000ms);
    rr_test::reply_json(res, 200, "{}");
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  const auto t0 = std::chrono::steady_clock::now();
  rr::ApiError e = api_error_of([&] {
    rr::CallDeadline deadline(std::chrono::steady_clock::now() + 200ms);
    client.get_path("/version");
  });
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  CHECK(elapsed >= 150ms);
  CHECK(elapsed < 1500ms);
  CHECK(std::string(e.what()).find("context deadline exceeded") != std::string::npos);
  CHECK(e.status().reason == "Timeout");
}

TEST_CASE("call deadline: past the deadline no request is sent, and a retry is not waited for") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Get("/version", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.set_header("Retry-After", "2");
    rr_test::reply_json(res, 429, rr_test::status_body(429, "TooManyRequests", "later"));
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr::HttpClientOptions{});

  rr::ApiError passed = api_error_of([&] {
    rr::CallDeadline deadline(std::chrono::steady_clock::now() - 1ms);
    client.get_path("/version");
  });
  CHECK(attempts == 0);
  CHECK(passed.status().reason == "Timeout");

  const auto t0 = std::chrono::steady_clock::now();
  rr::ApiError retried = api_error_of([&] {
    rr::CallDeadline deadline(std::chrono::steady_clock::now() + 500ms);
    client.get_path("/version");
  });
  CHECK(std::chrono::steady_clock::now() - t0 < 1000ms);  // not the server's 2 s
  CHECK(attempts == 1);
  CHECK(retried.status().reason == "Timeout");
}

TEST_CASE("call deadline: scopes nest to the earlier deadline and restore the previous one") {
  CHECK_FALSE(rr::CallDeadline::current());
  const auto now = std::chrono::steady_clock::now();
  {
    rr::CallDeadline outer(now + 10s);
    {
      rr::CallDeadline inner(now + 20s);  // later: the outer one stays in force
      CHECK(rr::CallDeadline::current() == now + 10s);
    }
    {
      rr::CallDeadline inner(now + 1s);
      CHECK(rr::CallDeadline::current() == now + 1s);
    }
    CHECK(rr::CallDeadline::current() == now + 10s);
  }
  CHECK_FALSE(rr::CallDeadline::current());
}
