// The manager without leader election: runnables, /metrics, /healthz, /readyz over HTTP, and the
// shutdown sequence (waiting for slow runnables, giving up after the grace period, failures).
#include <doctest/doctest.h>

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <memory>
#include <stdexcept>
#include <string>

#include "manager_test_util.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/manager/manager.hpp"

using namespace std::chrono_literals;
using rr::test::eventually;
using rr::test::FakeRunnable;
using rr::test::http_get;
using rr::test::LogCapture;
using rr::test::Running;

TEST_CASE("runnables start at once without leader election, and stop on the stop request") {
  LogCapture logs;
  rr::Manager manager(rr::test::loopback_options(), nullptr, logs.logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  auto controller = std::make_shared<FakeRunnable>("controller", true);
  manager.add(cache);
  manager.add(controller);
  Running running(manager);
  CHECK(eventually([&] { return cache->running && controller->running; }));
  CHECK_FALSE(manager.is_leader());
  CHECK(manager.identity().empty());
  CHECK(running.stop() == 0);
  CHECK(cache->returned);
  CHECK(controller->returned);
  CHECK(cache->starts == 1);
  CHECK(logs.has("Stopped manager"));
}

TEST_CASE("/metrics serves the manager's registry, and collectors run before each scrape") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  auto& requests = manager.metrics().counter("app_requests_total", "Requests served.", {"code"});
  requests.with({"200"}).inc(3);
  auto& scrapes = manager.metrics().gauge("app_scrapes", "Scrapes seen.");
  manager.add_metrics_collector([&scrapes] { scrapes.with({}).inc(); });
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0; }));
  const auto reply = http_get(manager.metrics_port(), "/metrics");
  CHECK(reply.status == 200);
  CHECK(reply.content_type == "text/plain; version=0.0.4; charset=utf-8");
  CHECK(reply.body.find("# TYPE app_requests_total counter\napp_requests_total{code=\"200\"} 3\n") != std::string::npos);
  CHECK(reply.body.find("app_scrapes 1\n") != std::string::npos);
  CHECK(http_get(manager.metrics_port(), "/metrics").body.find("app_scrapes 2\n") != std::string::npos);
  CHECK(http_get(manager.metrics_port(), "/other").status == 404);
  const int port = manager.metrics_port();
  CHECK(running.stop() == 0);
  CHECK(manager.metrics_port() == 0);
  CHECK(http_get(port, "/metrics").status == 0);  // the server is gone
}

TEST_CASE("the servers answer requests on a kept-alive connection without Nagle's delay (TCP_NODELAY)") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  manager.metrics().counter("app_requests_total", "Requests served.").with({}).inc();  // a body to send
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0 && manager.health_probe_port() > 0; }));
  for (const int port : {manager.metrics_port(), manager.health_probe_port()}) {
    httplib::Client client("127.0.0.1", port);
    client.set_keep_alive(true);
    client.set_read_timeout(5);
    constexpr int requests = 30;
    const auto before = std::chrono::steady_clock::now();
    for (int i = 0; i < requests; ++i) {
      const auto reply = client.Get(port == manager.metrics_port() ? "/metrics" : "/healthz");
      REQUIRE(reply);
      CHECK(reply->status == 200);
    }
    // Without TCP_NODELAY each response's second write waits for the client's delayed ACK
    // (40 ms on Linux): 30 requests would take over a second.
    CHECK(std::chrono::steady_clock::now() - before < 600ms);
  }
  CHECK(running.stop() == 0);
}

TEST_CASE("/healthz has ping, and /readyz fails until every started runnable is ready") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  cache->is_ready = false;
  manager.add(cache);
  std::atomic<bool> webhook_ok{true};
  manager.add_readyz_check("webhook", [&] { return webhook_ok.load(); });
  manager.add_healthz_check("disk", [] { return true; });
  CHECK_THROWS_AS(manager.add_readyz_check("cache", [] { return true; }), std::invalid_argument);
  Running running(manager);
  REQUIRE(eventually([&] { return manager.health_probe_port() > 0 && cache->running; }));
  const int port = manager.health_probe_port();

  const auto healthz = http_get(port, "/healthz");
  CHECK(healthz.status == 200);
  CHECK(healthz.body == "ok");
  CHECK(http_get(port, "/healthz?verbose").body == "[+]disk ok\n[+]ping ok\nhealthz check passed\n");
  CHECK(http_get(port, "/healthz/ping").body == "ok");
  CHECK(http_get(port, "/healthz/nope").status == 404);

  const auto not_ready = http_get(port, "/readyz");
  CHECK(not_ready.status == 500);
  CHECK(not_ready.body == "[-]cache failed: reason withheld\n[+]webhook ok\nhealthz check failed\n");
  CHECK(http_get(port, "/readyz/cache").status == 500);
  CHECK(http_get(port, "/readyz/webhook").status == 200);
  CHECK(http_get(port, "/readyz?exclude=cache").status == 200);

  cache->is_ready = true;
  CHECK(http_get(port, "/readyz").status == 200);
  CHECK(http_get(port, "/readyz").body == "ok");
  webhook_ok = false;
  CHECK(http_get(port, "/readyz").body == "[+]cache ok\n[-]webhook failed: reason withheld\nhealthz check failed\n");
  CHECK(running.stop() == 0);
}

TEST_CASE("\"0\" disables the servers") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.metrics_bind_address = "0";
  options.health_probe_bind_address = "0";
  rr::Manager manager(options, nullptr, rr::Logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  manager.add(cache);
  Running running(manager);
  REQUIRE(eventually([&] { return cache->running.load(); }));
  CHECK(manager.metrics_port() == 0);
  CHECK(manager.health_probe_port() == 0);
  CHECK(running.stop() == 0);
}

TEST_CASE("a port in use fails run() with exit code 1 before any runnable starts") {
  httplib::Server occupier;
  const int taken = occupier.bind_to_any_port("127.0.0.1");
  REQUIRE(taken > 0);
  rr::ManagerOptions options = rr::test::loopback_options();
  options.health_probe_bind_address = "127.0.0.1:" + std::to_string(taken);
  LogCapture logs;
  rr::Manager manager(options, nullptr, logs.logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  manager.add(cache);
  std::stop_source stop;
  std::jthread timer([&stop](std::stop_token cancelled) {  // bounds the test should the bind succeed
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait_for(lock, cancelled, 3s, [] { return false; });
    stop.request_stop();
  });
  const auto before = std::chrono::steady_clock::now();
  CHECK(manager.run(stop.get_token()) == 1);
  CHECK(std::chrono::steady_clock::now() - before < 2s);
  CHECK(cache->starts == 0);
  CHECK(logs.has("failed to start an HTTP server", "cannot bind"));
}

TEST_CASE("shutdown stops leader-election runnables first and waits for a slow one") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  auto journal = std::make_shared<rr::test::Journal>();
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  auto controller = std::make_shared<FakeRunnable>("controller", true);
  cache->journal = journal;
  controller->journal = journal;
  controller->stop_delay = 300ms;  // finishing its in-flight reconciles
  manager.add(cache);
  manager.add(controller);
  Running running(manager);
  REQUIRE(eventually([&] { return cache->running && controller->running; }));
  const auto before = std::chrono::steady_clock::now();
  CHECK(running.stop() == 0);
  CHECK(std::chrono::steady_clock::now() - before >= 300ms);
  CHECK(controller->returned);
  CHECK(cache->returned);
  const auto events = journal->events();
  REQUIRE(events.size() == 4);
  CHECK(events[2] == "controller:stop");
  CHECK(events[3] == "cache:stop");  // asked only once the controller had returned
}

TEST_CASE("shutdown gives up after the graceful shutdown timeout with exit code 1") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.graceful_shutdown_timeout = 200ms;
  LogCapture logs;
  rr::Manager manager(options, nullptr, logs.logger());
  auto stuck = std::make_shared<FakeRunnable>("stuck", true);
  stuck->stop_delay = 1500ms;
  manager.add(stuck);
  Running running(manager);
  REQUIRE(eventually([&] { return stuck->running.load(); }));
  const auto before = std::chrono::steady_clock::now();
  CHECK(running.stop() == 1);
  const auto took = std::chrono::steady_clock::now() - before;
  CHECK(took >= 200ms);
  CHECK(took < 1000ms);
  CHECK_FALSE(stuck->returned);
  CHECK(logs.has("problem running manager", "failed waiting for all runnables to end within grace period of 200ms"));
  CHECK(eventually([&] { return stuck->returned.load(); }));  // it ends on its own, after run()
}

namespace {

// Uses the manager as a controller does (its logger, its metrics registry) while it finishes
// after the stop request, for `linger`.
class LateRunnable : public rr::Runnable {
 public:
  LateRunnable(rr::Manager& manager, std::chrono::milliseconds linger) : manager_(manager), linger_(linger) {}
  std::string name() const override { return "late"; }
  void start(std::stop_token stop) override {
    running = true;
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait(lock, stop, [] { return false; });
    for (int i = 0; i < 10; ++i) {  // a reconcile still in flight
      std::this_thread::sleep_for(linger_ / 10);
      manager_.metrics().counter("late_work_total", "Late work.").with({}).inc();
    }
    manager_.logger().info("late work done");
    returned = true;
  }
  std::atomic<bool> running{false};
  std::atomic<bool> returned{false};

 private:
  rr::Manager& manager_;
  std::chrono::milliseconds linger_;
};

}  // namespace

TEST_CASE("destroying the manager after an overrun grace period waits for the runnables still using it") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.graceful_shutdown_timeout = 100ms;
  LogCapture logs;
  auto manager = std::make_unique<rr::Manager>(options, nullptr, logs.logger());
  auto late = std::make_shared<LateRunnable>(*manager, 600ms);
  manager->add(late);
  CHECK(manager->wait_for_runnables(0ms));  // nothing started yet
  {
    Running running(*manager);
    REQUIRE(eventually([&] { return late->running.load(); }));
    CHECK(running.stop() == 1);  // gave up after 100 ms
  }
  CHECK_FALSE(late->returned);
  CHECK_FALSE(manager->wait_for_runnables(50ms));
  const auto before = std::chrono::steady_clock::now();
  manager.reset();  // without the wait, `late` would write into a freed registry and logger (ASan, TSan)
  CHECK(late->returned);
  CHECK(std::chrono::steady_clock::now() - before >= 300ms);
  CHECK(logs.has("Waiting for the runnables still running before destroying the manager"));
  CHECK(logs.has("late work done"));
}

TEST_CASE("wait_for_runnables reports whether every runnable thread has returned") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.graceful_shutdown_timeout = 50ms;
  rr::Manager manager(options, nullptr, rr::Logger());
  auto slow = std::make_shared<FakeRunnable>("slow", true);
  slow->stop_delay = 400ms;
  manager.add(slow);
  Running running(manager);
  REQUIRE(eventually([&] { return slow->running.load(); }));
  CHECK_FALSE(manager.wait_for_runnables(0ms));
  CHECK(running.stop() == 1);
  CHECK_FALSE(manager.wait_for_runnables(0ms));
  CHECK(manager.wait_for_runnables(5s));
  CHECK(slow->returned);
}

TEST_CASE("a throwing runnable ends run() with exit code 1 and stops the others") {
  LogCapture logs;
  rr::Manager manager(rr::test::loopback_options(), nullptr, logs.logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  auto controller = std::make_shared<FakeRunnable>("controller", true);
  manager.add(cache);
  manager.add(controller);
  Running running(manager);
  REQUIRE(eventually([&] { return cache->running && controller->running; }));
  controller->break_now();
  CHECK(running.wait() == 1);  // no stop request: the failure ended it
  CHECK(cache->returned);
  CHECK(logs.has("runnable failed", "controller broke"));
  CHECK(logs.has("problem running manager", "controller: controller broke"));
}

TEST_CASE("runnables added after run() or a second run() are refused") {
  rr::Manager manager(rr::test::loopback_options(), nullptr, rr::Logger());
  Running running(manager);
  REQUIRE(eventually([&] { return manager.health_probe_port() > 0; }));
  CHECK_THROWS_AS(manager.add(std::make_shared<FakeRunnable>("late", false)), std::logic_error);
  CHECK_THROWS_AS(manager.add_metrics_collector([] {}), std::logic_error);
  std::stop_source stop;
  CHECK_THROWS_AS((void)manager.run(stop.get_token()), std::logic_error);
  CHECK(running.stop() == 0);
}

TEST_CASE("a negative graceful timeout waits as long as it takes") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.graceful_shutdown_timeout = -1s;
  rr::Manager manager(options, nullptr, rr::Logger());
  auto slow = std::make_shared<FakeRunnable>("slow", false);
  slow->stop_delay = 200ms;
  manager.add(slow);
  Running running(manager);
  REQUIRE(eventually([&] { return slow->running.load(); }));
  CHECK(running.stop() == 0);
  CHECK(slow->returned);
}

TEST_CASE("a malformed bind address is refused by the constructor") {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.metrics_bind_address = "nope";
  CHECK_THROWS_AS(rr::Manager(options, nullptr, rr::Logger()), std::invalid_argument);
}
