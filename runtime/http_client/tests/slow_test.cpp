// Waits that take a second or more.
#include <doctest/doctest.h>

#include <atomic>

#include "test_server.hpp"

TEST_CASE("Retry-After is honoured: the retry waits the server's seconds") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Get("/version", [&](const httplib::Request&, httplib::Response& res) {
    if (++attempts == 1) {
      res.set_header("Retry-After", "1");
      rr_test::reply_json(res, 429, rr_test::status_body(429, "TooManyRequests", "later"));
      return;
    }
    rr_test::reply_json(res, 200, "{}");
  });
  server.start();
  rr::HttpClientOptions options;  // default policy: Retry-After capped at 30 s
  rr::HttpClient client(rr_test::config_for(server), options);
  const auto t0 = std::chrono::steady_clock::now();
  client.get_path("/version");
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  CHECK(attempts == 2);
  CHECK(elapsed >= std::chrono::milliseconds(1000));
  CHECK(elapsed < std::chrono::milliseconds(3000));
}
