// rr::EventRecorderV1 against the local API server over HTTP: the Event it creates passes the
// server's events.k8s.io/v1 validation, and its series is a merge patch the server
// applies. The recorder's timer is driven by hand (run_timer off, a FakeClock).
#include <doctest/doctest.h>

#include "live_cluster.hpp"
#include "rr/controller/event_recorder_v1.hpp"
#include "rr/controller/fake_clock.hpp"

using namespace rr;
using namespace rr::integration;
using namespace std::chrono_literals;

TEST_CASE("events.k8s.io/v1 recorder over HTTP: the Event is created, then becomes a series by patch") {
  LiveCluster live;
  auto client = live.client();
  const KindInfo cm = client->kind_info(config_map_gvk());
  const KindInfo events = client->kind_info(GroupVersionKind{"events.k8s.io", "v1", "Event"});
  const Json target = client->create(cm, config_map("default", "settings"));

  FakeClock clock;
  EventRecorderV1Options options;
  options.reporting_controller = "widget-controller";
  options.clock = &clock;
  options.run_timer = false;
  std::vector<std::string> failures;
  options.log = Logger(
      std::make_shared<const LogSink>([&](const LogRecord& r) { failures.push_back(r.message + ": " + r.error); }));
  EventRecorderV1 recorder(client, options);

  const Event synced{event_target_of(target), "Normal", "Synced", "synced the settings"};
  recorder.record(synced);
  Json list = client->list(events, {.namespace_ = "default"});
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["reportingController"] == "widget-controller");
  CHECK(list["items"][0]["regarding"]["name"] == "settings");
  CHECK(list["items"][0]["note"] == "synced the settings");
  CHECK_FALSE(list["items"][0].contains("series"));

  recorder.record(synced);
  recorder.record(synced);
  list = client->list(events, {.namespace_ = "default"});
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["series"]["count"] == 2);  // the third is counted, written by the timer

  clock.advance(7min);
  recorder.tick();
  list = client->list(events, {.namespace_ = "default"});
  REQUIRE(list["items"].size() == 1);
  CHECK(list["items"][0]["series"]["count"] == 3);
  CHECK(failures.empty());
}
