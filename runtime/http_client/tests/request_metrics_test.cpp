// HttpClientMetrics: one result per attempt with code, method and host; one latency per call,
// also for a failed one; a watch counts when its headers arrive.
#include <doctest/doctest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "test_server.hpp"

using rr_test::reply_json;
using rr_test::status_body;

namespace {

const rr::KindInfo kWidgets{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", rr::Scope::Namespaced, true};

class Recorder final : public rr::HttpClientMetrics {
 public:
  void request_result(std::string_view code, std::string_view method, std::string_view host) override {
    const std::lock_guard lock(mutex_);
    results_.push_back(std::string(code) + " " + std::string(method) + " " + std::string(host));
  }
  void request_latency(std::string_view verb, std::string_view host, double seconds) override {
    const std::lock_guard lock(mutex_);
    latencies_.push_back(std::string(verb) + " " + std::string(host));
    if (seconds < 0) negative_ = true;
  }
  void rate_limiter_latency(std::string_view verb, std::string_view host, double seconds) override {
    const std::lock_guard lock(mutex_);
    throttled_.push_back(std::string(verb) + " " + std::string(host));
    waits_.push_back(seconds);
  }
  std::vector<std::string> results() const {
    const std::lock_guard lock(mutex_);
    return results_;
  }
  std::vector<std::string> latencies() const {
    const std::lock_guard lock(mutex_);
    return latencies_;
  }
  std::vector<std::string> throttled() const {
    const std::lock_guard lock(mutex_);
    return throttled_;
  }
  std::vector<double> waits() const {
    const std::lock_guard lock(mutex_);
    return waits_;
  }
  bool negative() const {
    const std::lock_guard lock(mutex_);
    return negative_;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> results_;
  std::vector<std::string> latencies_;
  std::vector<std::string> throttled_;
  std::vector<double> waits_;
  bool negative_ = false;
};

std::string host_of(const rr_test::TestServer& server) { return "127.0.0.1:" + std::to_string(server.port()); }

rr::HttpClientOptions observed_by(std::shared_ptr<Recorder> recorder) {
  rr::HttpClientOptions options = rr_test::quick_options();
  options.metrics = std::move(recorder);
  return options;
}

}  // namespace

TEST_CASE("request metrics: every attempt's code, method and host, and one latency per call") {
  rr_test::TestServer server;
  std::atomic<int> gets{0};
  server.http().Get("/apis/example.dev/v1/namespaces/ns/widgets/w",
                    [&](const httplib::Request&, httplib::Response& res) {
                      if (++gets == 1) {
                        res.set_header("Retry-After", "0");
                        reply_json(res, 503, status_body(503, "ServiceUnavailable", "busy"));
                        return;
                      }
                      reply_json(res, 200, R"({"metadata":{"name":"w"}})");
                    });
  server.http().Delete(".*", [](const httplib::Request&, httplib::Response& res) {
    reply_json(res, 404, status_body(404, "NotFound", "gone"));
  });
  server.start();
  auto recorder = std::make_shared<Recorder>();
  rr::HttpClient client(rr_test::config_for(server), observed_by(recorder));
  const std::string host = host_of(server);

  CHECK(client.get(kWidgets, {"ns", "w"})["metadata"]["name"] == "w");
  CHECK_THROWS_AS(client.remove(kWidgets, {"ns", "w"}), rr::ApiError);
  CHECK(recorder->results() == std::vector<std::string>{"503 GET " + host, "200 GET " + host, "404 DELETE " + host});
  CHECK(recorder->latencies() == std::vector<std::string>{"GET " + host, "DELETE " + host});
  // The rate limiter is consulted before every attempt, the retry's included.
  CHECK(recorder->throttled() == std::vector<std::string>{"GET " + host, "GET " + host, "DELETE " + host});
  CHECK_FALSE(recorder->negative());

  // set_metrics() replaces the sink; nullptr turns it off.
  auto second = std::make_shared<Recorder>();
  client.set_metrics(second);
  CHECK(client.get(kWidgets, {"ns", "w"})["metadata"]["name"] == "w");
  client.set_metrics(nullptr);
  CHECK(client.get(kWidgets, {"ns", "w"})["metadata"]["name"] == "w");
  CHECK(second->results() == std::vector<std::string>{"200 GET " + host});
  CHECK(recorder->results().size() == 3);
}

TEST_CASE("request metrics: no answer is code <error>; a watch counts once, when its headers arrive") {
  rr_test::TestServer server;
  server.http().Get(
      "/apis/example.dev/v1/namespaces/ns/widgets", [&server](const httplib::Request&, httplib::Response& res) {
        res.set_chunked_content_provider("application/json", [&server](size_t, httplib::DataSink& sink) {
          const std::string bookmark = R"({"type":"BOOKMARK","object":{"metadata":{"resourceVersion":"1"}}})"
                                       "\n";
          if (!sink.write(bookmark.data(), bookmark.size())) return false;
          server.hold(std::chrono::milliseconds(10000));
          sink.done();
          return true;
        });
      });
  server.start();
  auto recorder = std::make_shared<Recorder>();
  rr::HttpClient client(rr_test::config_for(server), observed_by(recorder));
  const std::string host = host_of(server);

  rr::ListOptions in_ns;
  in_ns.namespace_ = "ns";
  auto watch = client.watch(kWidgets, in_ns);
  CHECK(recorder->results() == std::vector<std::string>{"200 GET " + host});
  CHECK(recorder->latencies() == std::vector<std::string>{"GET " + host});
  watch->stop();

  // A port nobody listens on: no HTTP answer, so "<error>" (a POST is not retried).
  const int port = rr_test::unused_port();
  rr::RestConfig config;
  config.host = "http://127.0.0.1:" + std::to_string(port);
  rr::HttpClient offline(config, observed_by(recorder));
  CHECK_THROWS_AS(offline.create(kWidgets, {{"metadata", {{"namespace", "ns"}, {"name", "w"}}}}), rr::ApiError);
  CHECK(recorder->results().back() == "<error> POST 127.0.0.1:" + std::to_string(port));
  CHECK(recorder->latencies().back() == "POST 127.0.0.1:" + std::to_string(port));
}

TEST_CASE("request metrics: the wait for the client-side rate limiter, per attempt") {
  rr_test::TestServer server;
  server.http().Get(
      "/apis/example.dev/v1/namespaces/ns/widgets/w",
      [](const httplib::Request&, httplib::Response& res) { reply_json(res, 200, R"({"metadata":{"name":"w"}})"); });
  server.start();
  auto recorder = std::make_shared<Recorder>();
  rr::RestConfig config = rr_test::config_for(server);
  config.qps = 5.0F;  // a token every 200 ms, none saved up beyond the first
  config.burst = 1;
  rr::HttpClient client(config, observed_by(recorder));

  for (int i = 0; i < 3; ++i) CHECK(client.get(kWidgets, {"ns", "w"})["metadata"]["name"] == "w");
  const std::vector<double> waits = recorder->waits();
  REQUIRE(waits.size() == 3);
  CHECK(waits[0] < 0.1);  // the burst's token
  // The next two waited for theirs: 200 ms each, less the time the request before took.
  CHECK(waits[1] + waits[2] > 0.2);
  CHECK(waits[1] < 2.0);
  CHECK(waits[2] < 2.0);

  // A negative qps turns the limit off: every wait is 0.
  auto unlimited = std::make_shared<Recorder>();
  config.qps = -1.0F;
  rr::HttpClient fast(config, observed_by(unlimited));
  for (int i = 0; i < 5; ++i) CHECK(fast.get(kWidgets, {"ns", "w"})["metadata"]["name"] == "w");
  CHECK(unlimited->waits() == std::vector<double>(5, 0.0));
}
