// EventRecorderV1: events.k8s.io/v1 Events and client-go's series aggregation, on a fake clock.
#include "rr/controller/event_recorder_v1.hpp"

#include <doctest/doctest.h>

#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rr/client/forwarding_client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/fake_clock.hpp"
#include "rr/core/json.hpp"

using namespace std::chrono_literals;

namespace {

const rr::KindInfo v1_event_kind{{"events.k8s.io", "v1", "Event"}, "events", "EventList", rr::Scope::Namespaced, false};

// Writes as lines: "create <ns>/<name>", "patch <ns>/<name> <body>".
class V1WriteLog final : public rr::ForwardingClient {
 public:
  using rr::ForwardingClient::ForwardingClient;
  std::vector<std::string> lines() {
    std::lock_guard lock(mutex_);
    return lines_;
  }

 protected:
  rr::Json do_create(const rr::KindInfo& k, const rr::Json& o, const rr::WriteOptions& w) override {
    push("create " + rr::key_of(o).str());
    return ForwardingClient::do_create(k, o, w);
  }
  rr::Json do_patch(const rr::KindInfo& k, const rr::ObjectKey& key, rr::PatchType t, std::string_view body,
                    std::string_view sub, const rr::WriteOptions& w) override {
    push("patch " + key.str() + " " + std::string(body));
    return ForwardingClient::do_patch(k, key, t, body, sub, w);
  }

 private:
  void push(std::string line) {
    std::lock_guard lock(mutex_);
    lines_.push_back(std::move(line));
  }
  std::mutex mutex_;
  std::vector<std::string> lines_;
};

struct V1Fixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<V1WriteLog> client = std::make_shared<V1WriteLog>(std::make_shared<rr::ClusterClient>(cluster));
  rr::FakeClock clock;
  // Wall time follows the fake clock from 2026-11-30T08:00:00Z.
  std::chrono::system_clock::time_point wall_start = std::chrono::system_clock::time_point(1796025600s);
  std::unique_ptr<rr::EventRecorderV1> recorder;

  explicit V1Fixture(bool run_timer = false) {
    cluster->register_kind(v1_event_kind);
    rr::EventRecorderV1Options o;
    o.reporting_controller = "widget-controller";
    o.reporting_instance = "widget-controller-host";
    o.clock = &clock;
    const auto start = clock.now();
    o.wall_clock = [this, start] {
      return wall_start + std::chrono::duration_cast<std::chrono::system_clock::duration>(clock.now() - start);
    };
    o.run_timer = run_timer;
    recorder = std::make_unique<rr::EventRecorderV1>(client, o);
  }

  std::vector<rr::Json> events() {
    rr::ListOptions all;
    return cluster->list(v1_event_kind, all)["items"].get<std::vector<rr::Json>>();
  }
};

rr::Event v1_failed(std::string note = "it broke") {
  return rr::Event{{"example.dev/v1", "Widget", "team-a", "w", "uid-1", "7"}, "Warning", "Failed", std::move(note)};
}

}  // namespace

TEST_CASE("events.k8s.io/v1 recorder: one Event with every field client-go's recorder sets") {
  V1Fixture f;
  rr::Event e = v1_failed();
  e.action = "Reconcile";
  e.related = rr::EventTarget{"v1", "ConfigMap", "team-a", "settings", "uid-2", ""};
  f.recorder->record(e);
  const auto events = f.events();
  REQUIRE(events.size() == 1);
  const rr::Json& v = events[0];
  CHECK(v["apiVersion"] == "events.k8s.io/v1");
  CHECK(v["metadata"]["namespace"] == "team-a");
  CHECK(v["metadata"]["name"].get<std::string>().rfind("w.", 0) == 0);
  CHECK(v["eventTime"] == "2026-11-30T08:00:00.000000Z");
  CHECK(v["reportingController"] == "widget-controller");
  CHECK(v["reportingInstance"] == "widget-controller-host");
  CHECK(v["action"] == "Reconcile");
  CHECK(v["reason"] == "Failed");
  CHECK(v["note"] == "it broke");
  CHECK(v["type"] == "Warning");
  CHECK(v["regarding"] == rr::Json{{"apiVersion", "example.dev/v1"},
                                   {"kind", "Widget"},
                                   {"namespace", "team-a"},
                                   {"name", "w"},
                                   {"uid", "uid-1"},
                                   {"resourceVersion", "7"}});
  CHECK(v["related"]["name"] == "settings");
  CHECK_FALSE(v.contains("series"));

  // Without an action the reason stands in (the API requires one); notes are cut to 1024 bytes.
  f.recorder->record(v1_failed(std::string(1500, 'x')));
  const auto two = f.events();
  REQUIRE(two.size() == 2);
  for (const auto& event : two) {
    if (event["action"] == "Failed") CHECK(event["note"].get<std::string>().size() == 1024);
  }
}

TEST_CASE("events.k8s.io/v1 recorder: repeats become a series, counted in memory and patched on the timer") {
  V1Fixture f;
  f.recorder->record(v1_failed());
  f.clock.advance(10s);
  f.recorder->record(v1_failed("another note, same series"));  // the note is not part of the key
  auto lines = f.client->lines();
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].rfind("create team-a/w.", 0) == 0);
  const std::string name = lines[0].substr(std::string("create ").size());
  CHECK(lines[1] == "patch " + name + R"( {"series":{"count":2,"lastObservedTime":"2026-11-30T08:00:10.000000Z"}})");

  // Later repeats are only counted.
  for (int i = 0; i < 3; ++i) {
    f.clock.advance(1s);
    f.recorder->record(v1_failed());
  }
  CHECK(f.client->lines().size() == 2);
  REQUIRE(f.events().size() == 1);
  CHECK(f.events()[0]["series"]["count"] == 2);

  // A different reason (or regarding, or related) is another event.
  rr::Event other = v1_failed();
  other.reason = "Retried";
  f.recorder->record(other);
  CHECK(f.events().size() == 2);
  CHECK(f.recorder->remembered() == 2);

  // Still observed within finish_time: the timer leaves the series alone.
  f.clock.advance(6min - 13s);
  f.recorder->tick();
  CHECK(f.client->lines().size() == 3);
  // Quiet for more than finish_time: its last count is patched and it is forgotten, as is the
  // single event.
  f.clock.advance(6min);
  f.recorder->tick();
  lines = f.client->lines();
  REQUIRE(lines.size() == 4);
  CHECK(lines[3] == "patch " + name + R"( {"series":{"count":5,"lastObservedTime":"2026-11-30T08:00:13.000000Z"}})");
  CHECK(f.recorder->remembered() == 0);
  for (const auto& event : f.events()) {
    if (event["reason"] == "Failed") CHECK(event["series"]["count"] == 5);
  }

  // Forgotten: the next one starts anew.
  f.recorder->record(v1_failed());
  CHECK(f.events().size() == 3);
}

TEST_CASE("events.k8s.io/v1 recorder: live series are refreshed every refresh_time; a deleted Event is created again") {
  V1Fixture f;
  f.recorder->record(v1_failed());
  for (int minute = 0; minute < 30; ++minute) {
    f.clock.advance(1min);
    f.recorder->record(v1_failed());
    f.recorder->tick();
  }
  // Count 31 after 30 minutes of one event a minute; the refresh at 30 min wrote it.
  auto lines = f.client->lines();
  REQUIRE(lines.size() == 3);  // create, the first repeat's patch, the refresh
  CHECK(lines[2].find(R"("count":31)") != std::string::npos);

  const auto events = f.events();
  REQUIRE(events.size() == 1);
  f.cluster->remove(v1_event_kind, rr::key_of(events[0]));
  f.clock.advance(30min);
  f.recorder->record(v1_failed());
  f.recorder->tick();  // the refresh's patch is answered 404: the Event is created with its series
  const auto again = f.events();
  REQUIRE(again.size() == 1);
  CHECK(again[0]["series"]["count"] == 32);
  CHECK(again[0]["metadata"]["name"] == events[0]["metadata"]["name"]);
}

TEST_CASE("events.k8s.io/v1 recorder: the timer thread finishes series as the clock passes") {
  V1Fixture f(/*run_timer=*/true);
  f.recorder->record(v1_failed());
  f.recorder->record(v1_failed());
  f.recorder->record(v1_failed());
  f.clock.advance(7min);
  bool finished = false;
  for (int i = 0; i < 500 && !finished; ++i) {
    finished = f.recorder->remembered() == 0;
    if (!finished) std::this_thread::sleep_for(10ms);
  }
  CHECK(finished);
  REQUIRE(f.events().size() == 1);
  CHECK(f.events()[0]["series"]["count"] == 3);
}

TEST_CASE("micro_time: metav1.MicroTime's RFC 3339 text with microseconds") {
  CHECK(rr::micro_time(std::chrono::system_clock::time_point(1796025600s + 1234567us)) ==
        "2026-11-30T08:00:01.234567Z");
  CHECK(rr::micro_time(std::chrono::system_clock::time_point(0s)) == "1970-01-01T00:00:00.000000Z");
}
