// The manager's webhook server: started by run() only when a handler was registered, on
// --webhook-port with the pair of --webhook-cert-dir, covered by /healthz, stopped with the manager.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "manager_test_util.hpp"
#include "rr/manager/manager.hpp"
#include "rr/webhook/server.hpp"
#include "webhook_test_support.hpp"

using rr::test::eventually;
using rr::test::FakeRunnable;
using rr::test::http_get;
using rr::test::LogCapture;
using rr::test::Running;

namespace {

rr::ManagerOptions webhook_options(const std::string& cert_dir) {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.webhook_host = "127.0.0.1";
  options.webhook_port = 0;
  options.webhook_cert_dir = cert_dir;
  return options;
}

}  // namespace

TEST_CASE("a registered webhook is served over HTTPS while the manager runs, and /healthz covers it") {
  const rr::webhook::test::ServingCerts certs;
  LogCapture logs;
  rr::Manager manager(webhook_options(certs.dir.string()), nullptr, logs.logger());
  manager.webhook_server().handle_admission("/validate", [](const rr::webhook::AdmissionRequest& request) {
    rr::webhook::AdmissionResponse response;
    response.warnings.push_back("seen " + request.name);
    return response;
  });
  Running running(manager);
  REQUIRE(eventually([&] { return manager.webhook_port() > 0 && manager.health_probe_port() > 0; }));
  const int port = manager.webhook_port();
  rr::webhook::AdmissionRequest request;
  request.uid = "u-1";
  request.name = "cm";
  rr::webhook::test::HttpsClient client(certs.pair.ca_pem);
  const auto reply = client.post(port, "/validate", rr::webhook::encode_admission_review_request(request));
  CHECK(reply.status == 200);
  CHECK(rr::webhook::decode_admission_review_response(reply.body).warnings == std::vector<std::string>{"seen cm"});
  CHECK(http_get(manager.health_probe_port(), "/healthz?verbose").body ==
        "[+]ping ok\n[+]webhook ok\nhealthz check passed\n");
  CHECK(http_get(manager.health_probe_port(), "/healthz/webhook").status == 200);
  CHECK(logs.has("Serving webhook server"));
  CHECK(running.stop() == 0);
  CHECK(manager.webhook_port() == 0);
  CHECK(manager.webhook_server().check_started() == "webhook server has not been started yet");
}

TEST_CASE("without a registered webhook no webhook server starts and /healthz has no webhook check") {
  rr::Manager manager(webhook_options("/nonexistent"), nullptr, rr::Logger());
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  manager.add(cache);
  Running running(manager);
  REQUIRE(eventually([&] { return manager.health_probe_port() > 0 && cache->running; }));
  CHECK(manager.webhook_port() == 0);
  CHECK(http_get(manager.health_probe_port(), "/healthz?verbose").body == "[+]ping ok\nhealthz check passed\n");
  CHECK(running.stop() == 0);
}

TEST_CASE("a webhook server without its certificate fails run() with exit code 1 before any runnable starts") {
  LogCapture logs;
  rr::Manager manager(webhook_options("/nonexistent-rr-certs"), nullptr, logs.logger());
  manager.webhook_server().handle_conversion(
      "/convert", [](const rr::webhook::ConversionRequest&) { return rr::webhook::ConversionResponse{}; });
  auto cache = std::make_shared<FakeRunnable>("cache", false);
  manager.add(cache);
  std::stop_source stop;
  CHECK(manager.run(stop.get_token()) == 1);
  CHECK(cache->starts == 0);
  CHECK(logs.has("failed to start an HTTP server", "tls: cannot load certificate /nonexistent-rr-certs/tls.crt"));
}

TEST_CASE("an operator's own healthz check named \"webhook\" is kept") {
  const rr::webhook::test::ServingCerts certs;
  rr::Manager manager(webhook_options(certs.dir.string()), nullptr, rr::Logger());
  manager.webhook_server().handle_admission(
      "/validate", [](const rr::webhook::AdmissionRequest&) { return rr::webhook::AdmissionResponse{}; });
  manager.add_healthz_check("webhook", [] { return false; });
  Running running(manager);
  REQUIRE(eventually([&] { return manager.webhook_port() > 0 && manager.health_probe_port() > 0; }));
  CHECK(http_get(manager.health_probe_port(), "/healthz/webhook").status == 500);
  CHECK(running.stop() == 0);
}
