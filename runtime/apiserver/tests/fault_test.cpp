#include <doctest/doctest.h>

#include "k8s/core/v1/config_map.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

namespace {

const KindInfo cm_kind = kind_info_of<k8s::core::v1::ConfigMap>();
const char* cm_path = "/api/v1/namespaces/default/configmaps";

Json config_map(const std::string& name) {
  return Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

ApiServerOptions with_faults(FaultOptions faults) {
  ApiServerOptions options;
  options.faults = std::move(faults);
  return options;
}

}  // namespace

TEST_CASE("every request fails with 429 and Retry-After: discovery is never failed") {
  FaultOptions faults;
  faults.fail_rate = 1;
  faults.fail_codes = {429};
  faults.retry_after_seconds = 3;
  TestServer t(with_faults(faults));
  auto c = t.client();
  auto res = c->Get(cm_path);
  REQUIRE(res);
  CHECK(res->status == 429);
  CHECK(res->get_header_value("Retry-After") == "3");
  Json status = body_of(res);
  CHECK(status["reason"] == "TooManyRequests");
  CHECK(status["details"]["retryAfterSeconds"] == 3);
  CHECK(c->Get("/api/v1")->status == 200);
  CHECK(t.server->fault_counters().failures.at(429) == 1);
}

TEST_CASE("409 is only drawn for writes") {
  FaultOptions faults;
  faults.fail_rate = 1;
  faults.fail_codes = {409};
  TestServer t(with_faults(faults));
  auto c = t.client();
  CHECK(c->Get(cm_path)->status == 200);
  auto write = c->Post(cm_path, config_map("x").dump(), "application/json");
  CHECK(write->status == 409);
  CHECK(body_of(write)["reason"] == "Conflict");
  CHECK(t.server->fault_counters().total_failures() == 1);
}

TEST_CASE("a seeded fail rate is reproducible, and faults change at run time") {
  FaultOptions faults;
  faults.fail_rate = 0.5;
  faults.fail_codes = {500};
  faults.seed = 42;
  auto failures = [&] {
    TestServer t(with_faults(faults));
    auto c = t.client();
    std::string pattern;
    for (int i = 0; i < 40; ++i) pattern += c->Get(cm_path)->status == 500 ? 'x' : '.';
    CHECK(t.server->fault_counters().failures.at(500) == static_cast<std::uint64_t>(std::count(pattern.begin(), pattern.end(), 'x')));
    t.server->set_faults({});
    CHECK(c->Get(cm_path)->status == 200);
    return pattern;
  };
  const std::string first = failures();
  CHECK(first == failures());
  CHECK(first.find('x') != std::string::npos);
  CHECK(first.find('.') != std::string::npos);
}

TEST_CASE("latency is added to requests") {
  FaultOptions faults;
  faults.latency = 150ms;
  TestServer t(with_faults(faults));
  auto c = t.client();
  const auto started = std::chrono::steady_clock::now();
  CHECK(c->Get(cm_path)->status == 200);
  CHECK(std::chrono::steady_clock::now() - started >= 150ms);
  CHECK(t.server->fault_counters().delayed == 1);
}

TEST_CASE("expired resourceVersions: a list gets 410, a watch an ERROR event") {
  FaultOptions faults;
  faults.expire_rate = 1;
  TestServer t(with_faults(faults));
  t.cluster->create(cm_kind, config_map("a"));
  auto c = t.client();
  CHECK(c->Get(std::string(cm_path) + "?resourceVersion=0")->status == 200);  // "0" names no version
  auto list = c->Get(std::string(cm_path) + "?resourceVersion=1");
  CHECK(list->status == 410);
  CHECK(body_of(list)["reason"] == "Expired");
  WatchReader watch(t.server->port(), std::string(cm_path) + "?watch=1&resourceVersion=1");
  REQUIRE(watch.wait_end());
  REQUIRE(watch.events().size() == 1);
  CHECK(watch.events()[0]["type"] == "ERROR");
  CHECK(watch.events()[0]["object"]["code"] == 410);
  CHECK(t.server->fault_counters().expired == 2);
}

TEST_CASE("watch streams are cut after N events") {
  FaultOptions faults;
  faults.drop_watch_after_events = 2;
  TestServer t(with_faults(faults));
  for (const char* name : {"a", "b", "c"}) t.cluster->create(cm_kind, config_map(name));
  WatchReader watch(t.server->port(), std::string(cm_path) + "?watch=1&timeoutSeconds=5");
  REQUIRE(watch.wait_end(3s));
  CHECK(watch.events().size() == 2);
  CHECK_FALSE(watch.clean_end());
  CHECK(t.server->fault_counters().watches_dropped == 1);
}

TEST_CASE("a drop rate of 1 cuts an idle watch within about a second") {
  FaultOptions faults;
  faults.drop_watch_rate = 1;
  TestServer t(with_faults(faults));
  WatchReader watch(t.server->port(), std::string(cm_path) + "?watch=1&timeoutSeconds=10");
  CHECK(watch.wait_end(3s));
  CHECK(t.server->fault_counters().watches_dropped == 1);
}
