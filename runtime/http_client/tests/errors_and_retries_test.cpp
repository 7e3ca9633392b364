// Status errors, retries on 429/5xx (Retry-After, backoff, bounds), connection failures, timeouts,
// client-side rate limiting.
#include <doctest/doctest.h>

#include <atomic>

#include "rr/core/json.hpp"
#include "test_server.hpp"

using rr_test::reply_json;
using rr_test::status_body;

namespace {

const rr::KindInfo kConfigMaps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", rr::Scope::Namespaced, false};

rr::Status status_of_get(rr::HttpClient& client) {
  try {
    client.get(kConfigMaps, {"a", "b"});
  } catch (const rr::ApiError& e) {
    return e.status();
  }
  FAIL("expected an ApiError");
  return {};
}

}  // namespace

TEST_CASE("non-2xx Status answers throw ApiError with the server's Status") {
  rr_test::TestServer server;
  std::atomic<int> code{404};
  server.http().Get(".*", [&](const httplib::Request&, httplib::Response& res) {
    switch (code.load()) {
      case 404: reply_json(res, 404, status_body(404, "NotFound", R"(configmaps \"b\" not found)")); break;
      case 409: reply_json(res, 409, status_body(409, "Conflict", "stale")); break;
      case 403: reply_json(res, 403, status_body(403, "Forbidden", "no")); break;
      case 422: reply_json(res, 422, status_body(422, "Invalid", "bad")); break;
      case 410: reply_json(res, 410, status_body(410, "Expired", "too old resource version: 1 (5)")); break;
      default: reply_json(res, 400, status_body(400, "BadRequest", "what")); break;
    }
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());

  rr::Status s = status_of_get(client);
  CHECK(rr::is_not_found(s));
  CHECK(s.message == "configmaps \"b\" not found");
  CHECK(s.code == 404);
  code = 409;
  CHECK(rr::is_conflict(status_of_get(client)));
  code = 403;
  CHECK(rr::is_forbidden(status_of_get(client)));
  code = 422;
  CHECK(rr::is_invalid(status_of_get(client)));
  code = 410;
  CHECK(rr::is_gone(status_of_get(client)));
  code = 400;
  CHECK(rr::is_bad_request(status_of_get(client)));
  CHECK(server.count("GET", "/api/v1/") == 6);  // none of these is retried
}

TEST_CASE("429 with Retry-After is retried, for a POST too, then succeeds") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Post(".*", [&](const httplib::Request&, httplib::Response& res) {
    if (++attempts <= 2) {
      res.set_header("Retry-After", "1");  // capped to 20 ms by quick_options()
      reply_json(res, 429, status_body(429, "TooManyRequests", "slow down"));
      return;
    }
    reply_json(res, 201, R"({"metadata":{"name":"b"}})");
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  const auto t0 = std::chrono::steady_clock::now();
  const rr::Json created = client.create(kConfigMaps, {{"metadata", {{"namespace", "a"}, {"name", "b"}}}});
  CHECK(created["metadata"]["name"] == "b");
  CHECK(attempts == 3);
  CHECK(std::chrono::steady_clock::now() - t0 >= std::chrono::milliseconds(40));  // 2 x capped Retry-After
}

TEST_CASE("5xx without Retry-After: GET retried with backoff, POST not") {
  rr_test::TestServer server;
  std::atomic<int> gets{0};
  std::atomic<int> posts{0};
  server.http().Get(".*", [&](const httplib::Request&, httplib::Response& res) {
    if (++gets <= 3) {
      res.status = 503;
      res.set_content("overloaded", "text/plain");
      return;
    }
    reply_json(res, 200, R"({"ok":true})");
  });
  server.http().Post(".*", [&](const httplib::Request&, httplib::Response& res) {
    ++posts;
    reply_json(res, 500, status_body(500, "InternalError", "boom"));
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  CHECK(client.get(kConfigMaps, {"a", "b"})["ok"] == true);
  CHECK(gets == 4);
  try {
    client.create(kConfigMaps, {{"metadata", {{"namespace", "a"}, {"name", "b"}}}});
    FAIL("expected an ApiError");
  } catch (const rr::ApiError& e) {
    CHECK(e.code() == 500);
    CHECK(e.status().message == "boom");
  }
  CHECK(posts == 1);
}

TEST_CASE("retries are bounded: max_retries + 1 attempts, then the last answer's Status") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Get(".*", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    res.set_header("Retry-After", "0");
    res.status = 503;
    res.set_content("busy", "text/plain");
  });
  server.start();
  rr::HttpClientOptions options = rr_test::quick_options();
  options.retry.max_retries = 3;
  rr::HttpClient client(rr_test::config_for(server), options);
  const rr::Status s = status_of_get(client);
  CHECK(attempts == 4);
  CHECK(s.code == 503);
  CHECK(s.reason == "ServiceUnavailable");
  CHECK(s.retry_after_seconds == 0);
}

TEST_CASE("no server: ApiError code 0, reason ServiceUnavailable, naming the URL") {
  const int port = rr_test::unused_port();
  rr::RestConfig config;
  config.host = "http://127.0.0.1:" + std::to_string(port);
  config.qps = 0;
  rr::HttpClientOptions options = rr_test::quick_options();
  options.retry.max_retries = 2;
  rr::HttpClient client(config, options);
  const rr::Status s = status_of_get(client);
  CHECK(s.code == 0);
  CHECK(s.reason == "ServiceUnavailable");
  CHECK(s.message.find("GET \"http://127.0.0.1:" + std::to_string(port) + "/api/v1/namespaces/a/configmaps/b\": ") == 0);
}

TEST_CASE("RestConfig::timeout bounds a request, a timeout is not retried") {
  rr_test::TestServer server;
  std::atomic<int> attempts{0};
  server.http().Get(".*", [&](const httplib::Request&, httplib::Response& res) {
    ++attempts;
    server.hold(std::chrono::milliseconds(3000));
    reply_json(res, 200, "{}");
  });
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.timeout = std::chrono::milliseconds(150);
  rr::HttpClient client(config, rr_test::quick_options());
  const auto t0 = std::chrono::steady_clock::now();
  const rr::Status s = status_of_get(client);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::milliseconds(1000));
  CHECK(s.code == 0);
  CHECK(s.message.find("imeout") != std::string::npos);
  CHECK(attempts == 1);
}

TEST_CASE("client-side rate limiting: qps and burst") {
  rr_test::TestServer server;
  server.http().Get(".*", [](const httplib::Request&, httplib::Response& res) { reply_json(res, 200, "{}"); });
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.qps = 20;
  config.burst = 2;
  rr::HttpClient client(config, rr_test::quick_options());
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < 6; ++i) client.get(kConfigMaps, {"a", "b"});
  // 2 at once, then 4 more at 20/s: at least 200 ms.
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  CHECK(elapsed >= std::chrono::milliseconds(190));
  CHECK(elapsed < std::chrono::milliseconds(900));
}

TEST_CASE("one client shared by many threads") {
  rr_test::TestServer server;
  server.http().Get(R"(/api/v1/namespaces/a/configmaps/(\w+))", [](const httplib::Request& req, httplib::Response& res) {
    reply_json(res, 200, rr::Json{{"name", req.matches[1].str()}}.dump());
  });
  server.start();
  rr::HttpClient client(rr_test::config_for(server), rr_test::quick_options());
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 25; ++i) {
        const std::string name = "n" + std::to_string(t * 100 + i);
        if (client.get(kConfigMaps, {"a", name})["name"] == name) ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(good == 100);
}
