// The secure metrics endpoint against the local cluster with RBAC: HTTPS, a TokenReview and a
// SubjectAccessReview per new caller through the manager's client, then cached answers.
#include <doctest/doctest.h>

#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "manager_test_util.hpp"
#include "metrics_auth.hpp"
#include "metrics_auth_cluster.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/http_server/self_signed.hpp"
#include "rr/manager/manager.hpp"

using rr::test::eventually;
using rr::test::Running;

namespace {

// The scraper may get /metrics; the stranger may not.
struct LocalCluster : rr::test::MetricsAuthCluster {
  LocalCluster() {
    add_account("scraper");
    add_account("stranger");
    bind_metrics_reader(account_subject("scraper"));
  }
};

struct Scrape {
  int status = 0;  // 0: no TLS connection
  std::string body;
};

Scrape scrape_metrics(int port, const std::string& token, const std::string& ca_file = "") {
  httplib::SSLClient client("127.0.0.1", port);
  if (ca_file.empty()) {
    client.enable_server_certificate_verification(false);  // the generated self-signed certificate
  } else {
    client.set_ca_cert_path(ca_file.c_str());
  }
  client.set_connection_timeout(2);
  client.set_read_timeout(5);
  if (!token.empty()) client.set_bearer_token_auth(token);
  const auto result = client.Get("/metrics");
  if (!result) return {};
  return {result->status, result->body};
}

rr::ManagerOptions secure_options() {
  rr::ManagerOptions options = rr::test::loopback_options();
  options.metrics_secure = true;
  return options;
}

}  // namespace

TEST_CASE("secure metrics: HTTPS; 200 for a token bound to metrics-reader, 401 without or with a bad token, 403 "
          "when not allowed; reviews cached") {
  LocalCluster local;
  auto api = local.manager_client();
  rr::Manager manager(secure_options(), api, rr::Logger());
  manager.metrics().counter("app_requests_total", "Requests served.").with({}).inc(7);
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0; }));
  const int port = manager.metrics_port();
  const std::string scraper = local.token("scraper");

  const Scrape allowed = scrape_metrics(port, scraper);
  CHECK(allowed.status == 200);
  CHECK(allowed.body.find("# TYPE app_requests_total counter\napp_requests_total 7\n") != std::string::npos);
  CHECK(api->created("tokenreviews") == 1);
  CHECK(api->created("subjectaccessreviews") == 1);
  for (int i = 0; i < 5; ++i) CHECK(scrape_metrics(port, scraper).status == 200);
  CHECK(api->created("tokenreviews") == 1);  // the token and the decision were cached
  CHECK(api->created("subjectaccessreviews") == 1);

  const Scrape anonymous = scrape_metrics(port, "");
  CHECK(anonymous.status == 401);
  CHECK(anonymous.body == "Unauthorized\n");
  const Scrape bad = scrape_metrics(port, "not-a-token");
  CHECK(bad.status == 401);
  CHECK(bad.body == "Authentication failed\n");
  const Scrape stranger = scrape_metrics(port, local.token("stranger"));
  CHECK(stranger.status == 403);
  CHECK(stranger.body == "Authorization denied for user system:serviceaccount:default:stranger\n");
  const int reviews = api->created("subjectaccessreviews");
  CHECK(scrape_metrics(port, local.token("stranger")).status == 403);  // another token: reviewed; the denial cached
  CHECK(api->created("subjectaccessreviews") == reviews);

  // Plain HTTP is not served.
  CHECK(rr::test::http_get(port, "/metrics").status != 200);
  CHECK(running.stop() == 0);
}

TEST_CASE("secure metrics: the certificate under --metrics-cert-path (names from --metrics-cert-name/-key)") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("rr-metrics-certs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto pem = rr::http_server::make_self_signed_certificate({"localhost"}, {"127.0.0.1"});
  std::ofstream(dir / "serving.crt") << pem.cert_pem;
  std::ofstream(dir / "serving.key") << pem.key_pem;

  LocalCluster local;
  rr::ManagerOptions options = secure_options();
  options.metrics_cert_path = dir.string();
  options.metrics_cert_name = "serving.crt";
  options.metrics_cert_key = "serving.key";
  rr::Manager manager(options, local.manager_client(), rr::Logger());
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0; }));
  // Verified against that very certificate: the server serves it.
  CHECK(scrape_metrics(manager.metrics_port(), local.token("scraper"), (dir / "serving.crt").string()).status == 200);
  CHECK(running.stop() == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("--metrics-secure=false serves plain HTTP to anyone; secure metrics need a client") {
  rr::ManagerOptions options = rr::ManagerOptions::parse(
      {"--metrics-secure=false", "--metrics-bind-address=127.0.0.1:0", "--health-probe-bind-address=0"});
  rr::Manager manager(options, nullptr, rr::Logger());
  Running running(manager);
  REQUIRE(eventually([&] { return manager.metrics_port() > 0; }));
  CHECK(rr::test::http_get(manager.metrics_port(), "/metrics").status == 200);
  CHECK(running.stop() == 0);

  CHECK_THROWS_WITH_AS(rr::Manager(secure_options(), nullptr, rr::Logger()),
                       "secure metrics need an API client (or --metrics-secure=false)", std::invalid_argument);
}

TEST_CASE("MetricsAuth: answers expire after their TTL, and a full cache drops the answer that expires first") {
  LocalCluster local;
  auto api = local.manager_client();
  rr::MetricsAuth auth(api, rr::Logger(),
                       {.token_ttl = std::chrono::milliseconds(200),
                        .allow_ttl = std::chrono::milliseconds(200),
                        .deny_ttl = std::chrono::milliseconds(200),
                        .max_entries = 1});
  const auto request = [](const std::string& token) {
    rr::http_server::Request r;
    r.method = "GET";
    r.fields = {{"authorization", "Bearer " + token}};
    return r;
  };
  const auto scraper = request(local.token("scraper"));
  CHECK_FALSE(auth.check(scraper, "/metrics"));
  CHECK_FALSE(auth.check(scraper, "/metrics"));
  CHECK(api->created("tokenreviews") == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  CHECK_FALSE(auth.check(scraper, "/metrics"));  // both answers expired: reviewed again
  CHECK(api->created("tokenreviews") == 2);
  CHECK(api->created("subjectaccessreviews") == 2);

  // One entry per cache: the stranger's answers push the scraper's out.
  const auto stranger = request(local.token("stranger"));
  const auto refused = auth.check(stranger, "/metrics");
  REQUIRE(refused);
  CHECK(refused->status == 403);
  CHECK_FALSE(auth.check(scraper, "/metrics"));
  CHECK(api->created("tokenreviews") == 4);
  // The path and the lower-cased method are what is asked: another path is another decision.
  const auto other = auth.check(scraper, "/debug");
  REQUIRE(other);
  CHECK(other->status == 403);
  CHECK(other->body == "Authorization denied for user system:serviceaccount:default:scraper\n");
}
