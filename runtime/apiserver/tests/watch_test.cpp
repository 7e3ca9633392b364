#include <doctest/doctest.h>

#include "k8s/core/v1/config_map.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace std::chrono_literals;

namespace {

const KindInfo cm_kind = kind_info_of<k8s::core::v1::ConfigMap>();

Json config_map(const std::string& name) {
  return Json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
}

}  // namespace

TEST_CASE("a watch from now sends the current objects as ADDED, then changes as they happen") {
  TestServer t;
  t.cluster->create(cm_kind, config_map("before"));
  WatchReader watch(t.server->port(), "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=3");
  REQUIRE(watch.wait_for(1));
  Json changed = t.cluster->create(cm_kind, config_map("after"));
  changed["data"] = {{"k", "v"}};
  t.cluster->update(cm_kind, changed);
  t.cluster->remove(cm_kind, {"default", "after"});
  REQUIRE(watch.wait_for(4));
  auto events = watch.events();
  CHECK(events[0]["type"] == "ADDED");
  CHECK(events[0]["object"]["metadata"]["name"] == "before");
  CHECK(events[1]["type"] == "ADDED");
  CHECK(events[2]["type"] == "MODIFIED");
  CHECK(events[2]["object"]["data"]["k"] == "v");
  CHECK(events[3]["type"] == "DELETED");
  CHECK(watch.wait_end(5s));  // timeoutSeconds closes the stream cleanly
  CHECK(watch.clean_end());
}

TEST_CASE("a watch resumes after a list's resourceVersion: a named object's watch filters by name") {
  TestServer t;
  t.cluster->create(cm_kind, config_map("old"));
  const std::string rv = t.cluster->list(cm_kind, {})["metadata"]["resourceVersion"];
  t.cluster->create(cm_kind, config_map("new"));
  t.cluster->create(cm_kind, config_map("other"));
  WatchReader resumed(t.server->port(), "/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&resourceVersion=" + rv);
  REQUIRE(resumed.wait_for(2));
  CHECK(resumed.events()[0]["object"]["metadata"]["name"] == "new");

  WatchReader named(t.server->port(),
                    "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dother");
  REQUIRE(named.wait_end());
  auto events = named.events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["object"]["metadata"]["name"] == "other");
}

TEST_CASE("sendInitialEvents sends the current state, then the initial-events-end bookmark") {
  TestServer t;
  t.cluster->create(cm_kind, config_map("a"));
  t.cluster->create(cm_kind, config_map("b"));
  WatchReader watch(t.server->port(),
                    "/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1&sendInitialEvents=true"
                    "&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true");
  REQUIRE(watch.wait_for(3));
  auto events = watch.events();
  CHECK(events[0]["type"] == "ADDED");
  CHECK(events[1]["type"] == "ADDED");
  CHECK(events[2]["type"] == "BOOKMARK");
  CHECK(events[2]["object"]["metadata"]["annotations"]["k8s.io/initial-events-end"] == "true");
  CHECK(events[2]["object"]["metadata"]["resourceVersion"] == t.cluster->resource_version());

  auto c = t.client();
  auto refused = c->Get("/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true");
  CHECK(refused->status == 422);
}

TEST_CASE("a resourceVersion older than the history: an ERROR event with a 410 Expired Status") {
  ClusterOptions small;
  small.watch_history = 2;
  TestServer t({}, small);
  for (int i = 0; i < 5; ++i) t.cluster->create(cm_kind, config_map("cm" + std::to_string(i)));
  WatchReader watch(t.server->port(), "/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=1");
  REQUIRE(watch.wait_end());
  auto events = watch.events();
  REQUIRE(events.size() == 1);
  CHECK(events[0]["type"] == "ERROR");
  CHECK(events[0]["object"]["code"] == 410);
  CHECK(events[0]["object"]["reason"] == "Expired");
}

TEST_CASE("stop() ends open watch streams promptly") {
  auto t = std::make_unique<TestServer>();
  WatchReader watch(t->server->port(), "/api/v1/namespaces/default/configmaps?watch=1");  // no timeout
  REQUIRE(watch.wait_for(0, 1s));
  std::this_thread::sleep_for(200ms);
  const auto started = std::chrono::steady_clock::now();
  t->server->stop();
  CHECK(std::chrono::steady_clock::now() - started < 3s);
  CHECK(watch.wait_end(3s));
  CHECK_FALSE(t->server->running());
}
