// What every manager's /metrics shows without being asked (process_*), and rest_client_* from an
// rr::HttpClient talking to a local server through rest_client_metrics().
#include <doctest/doctest.h>

#include <httplib.h>

#include <string>
#include <thread>

#include "manager_test_util.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/core/json.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/manager/manager.hpp"
#include "rr/manager/rest_client_metrics.hpp"

using rr::test::eventually;
using rr::test::http_get;
using rr::test::Running;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// An API server stand-in on 127.0.0.1: /version answers 200, anything else 404.
class LocalServer {
 public:
  LocalServer() {
    server_.Get("/version", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"major":"1","minor":"30"})", "application/json");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    eventually([this] { return server_.is_running(); });
  }
  ~LocalServer() {
    server_.stop();
    thread_.join();
  }
  LocalServer(const LocalServer&) = delete;
  LocalServer& operator=(const LocalServer&) = delete;
  int port() const { return port_; }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
};

}  // namespace

TEST_CASE("/metrics shows the process collector's families by default") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0; }));
  const std::string body = http_get(manager.metrics_port(), "/metrics").body;
  CHECK(has(body, "# TYPE process_cpu_seconds_total counter\n"));
  for (const char* gauge :
       {"process_open_fds", "process_max_fds", "process_virtual_memory_bytes", "process_virtual_memory_max_bytes",
        "process_resident_memory_bytes", "process_start_time_seconds"}) {
    CHECK(has(body, std::string("# TYPE ") + gauge + " gauge\n"));
  }
  CHECK_FALSE(has(body, "\nprocess_start_time_seconds 0\n"));  // collected before the answer
  CHECK_FALSE(has(body, "\nprocess_resident_memory_bytes 0\n"));
  CHECK(running.stop() == 0);
}

TEST_CASE("rest_client_metrics: requests_total{code,method,host}, request_duration_seconds{verb,host} and "
          "rate_limiter_duration_seconds{verb,host}") {
  rr::metrics::Registry registry;
  LocalServer server;  // before the client: its connections close first
  rr::RestConfig config;
  config.host = "http://127.0.0.1:" + std::to_string(server.port());
  config.qps = 0;
  rr::HttpClient client(config);
  client.set_metrics(rr::metrics::rest_client_metrics(registry));
  const std::string host = "127.0.0.1:" + std::to_string(server.port());

  CHECK(client.get_path("/version")["major"] == "1");
  CHECK(client.get_path("/version")["minor"] == "30");
  CHECK_THROWS_AS(client.get_path("/nothing"), rr::ApiError);  // a 404 is not retried

  const std::string text = registry.expose();
  CHECK(has(text,
            "# HELP rest_client_requests_total Number of HTTP requests, partitioned by status code, method, and host.\n"
            "# TYPE rest_client_requests_total counter\n"));
  CHECK(has(text, "rest_client_requests_total{code=\"200\",host=\"" + host + "\",method=\"GET\"} 2\n"));
  CHECK(has(text, "rest_client_requests_total{code=\"404\",host=\"" + host + "\",method=\"GET\"} 1\n"));
  CHECK(has(text,
            "# HELP rest_client_request_duration_seconds Request latency in seconds. Broken down by verb, and host.\n"
            "# TYPE rest_client_request_duration_seconds histogram\n"));
  CHECK(has(text, "rest_client_request_duration_seconds_bucket{host=\"" + host + "\",verb=\"GET\",le=\"0.005\"} "));
  CHECK(has(text, "rest_client_request_duration_seconds_bucket{host=\"" + host + "\",verb=\"GET\",le=\"60\"} 3\n"));
  CHECK(has(text, "rest_client_request_duration_seconds_count{host=\"" + host + "\",verb=\"GET\"} 3\n"));
  CHECK(rr::metrics::rest_client_duration_buckets().size() == 12);
  // One rate-limiter wait per attempt; the limit is off here (qps 0), so each is 0.
  CHECK(has(text,
            "# HELP rest_client_rate_limiter_duration_seconds Client side rate limiter latency in seconds. Broken "
            "down by verb, and host.\n"
            "# TYPE rest_client_rate_limiter_duration_seconds histogram\n"));
  CHECK(has(text,
            "rest_client_rate_limiter_duration_seconds_bucket{host=\"" + host + "\",verb=\"GET\",le=\"0.005\"} 3\n"));
  CHECK(has(text, "rest_client_rate_limiter_duration_seconds_count{host=\"" + host + "\",verb=\"GET\"} 3\n"));
  client.set_metrics(nullptr);
}
