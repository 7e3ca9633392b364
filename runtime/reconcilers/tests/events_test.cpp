// Event targets, Go quoting, and the client event recorder writing core/v1 Events to the
// in-memory cluster.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/events.hpp"
#include "rr_reconcilers_test_api_types.hpp"

namespace {

using rrtest::v1::TestResource;

const rr::KindInfo event_kind{{"", "v1", "Event"}, "events", "EventList", rr::Scope::Namespaced, false};

TestResource test_resource() {
  TestResource r;
  r.metadata.namespace_ = "test-namespace";
  r.metadata.name = "test-resource";
  r.metadata.uid = "uid-1";
  r.metadata.resource_version = "999";
  return r;
}

std::vector<rr::Json> events_in(rr::Cluster& cluster, const std::string& ns) {
  rr::ListOptions opts;
  opts.namespace_ = ns;
  rr::Json list = cluster.list(event_kind, opts);
  return list["items"].get<std::vector<rr::Json>>();
}

struct EventsFixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<rr::ClusterClient> client = std::make_shared<rr::ClusterClient>(cluster);
  std::shared_ptr<std::vector<rr::LogRecord>> logs = std::make_shared<std::vector<rr::LogRecord>>();
  std::shared_ptr<rr::EventRecorder> recorder;

  explicit EventsFixture(bool serve_events = true) {
    if (serve_events) cluster->register_kind(event_kind);
    auto sink = std::make_shared<const rr::LogSink>([logs = logs](const rr::LogRecord& r) { logs->push_back(r); });
    recorder = rr::make_client_event_recorder(client, "test-controller", rr::Logger(sink));
  }
};

}  // namespace

TEST_CASE("event_target_of: typed and JSON objects") {
  const rr::EventTarget typed = rr::event_target_of(test_resource());
  CHECK(typed == rr::EventTarget{"testing.rrgen.dev/v1", "TestResource", "test-namespace", "test-resource", "uid-1", "999"});
  CHECK(rr::event_target_of(rr::to_object_json(test_resource())) == typed);
  CHECK(rr::event_target_of(rr::Json::object()) == rr::EventTarget{});
  CHECK(rr::event_target_of(rr::Json(nullptr)) == rr::EventTarget{});
}

TEST_CASE("go_quote: Go's %q") {
  CHECK(rr::go_quote("test.finalizer") == "\"test.finalizer\"");
  CHECK(rr::go_quote("") == "\"\"");
  CHECK(rr::go_quote("say \"hi\"\\") == R"("say \"hi\"\\")");
  CHECK(rr::go_quote("a\nb\tc") == R"("a\nb\tc")");
  CHECK(rr::go_quote(std::string("\x01\x7f", 2)) == R"("\x01\x7f")");
  CHECK(rr::go_quote("h\xc3\xa9") == "\"h\xc3\xa9\"");  // UTF-8 is printed as is
}

TEST_CASE("EventRecorder::event builds the Event from a typed object") {
  struct Capturing : rr::EventRecorder {
    std::vector<rr::Event> events;
    void record(const rr::Event& e) override { events.push_back(e); }
  } recorder;
  recorder.event(test_resource(), rr::event_warning, "Broken", "it broke");
  REQUIRE(recorder.events.size() == 1);
  CHECK(recorder.events[0] == rr::Event{rr::event_target_of(test_resource()), "Warning", "Broken", "it broke"});
}

TEST_CASE("client event recorder: creates a core/v1 Event") {
  EventsFixture f;
  f.recorder->event(test_resource(), rr::event_normal, "Created", "Created TestChild \"child\"");

  const auto events = events_in(*f.cluster, "test-namespace");
  REQUIRE(events.size() == 1);
  const rr::Json& e = events[0];
  CHECK(e["apiVersion"] == "v1");
  CHECK(e["kind"] == "Event");
  CHECK(e["metadata"]["namespace"] == "test-namespace");
  CHECK(e["metadata"]["name"].get<std::string>().rfind("test-resource.", 0) == 0);
  CHECK(e["involvedObject"] == rr::Json{{"apiVersion", "testing.rrgen.dev/v1"},
                                        {"kind", "TestResource"},
                                        {"namespace", "test-namespace"},
                                        {"name", "test-resource"},
                                        {"uid", "uid-1"},
                                        {"resourceVersion", "999"}});
  CHECK(e["type"] == "Normal");
  CHECK(e["reason"] == "Created");
  CHECK(e["message"] == "Created TestChild \"child\"");
  CHECK(e["count"] == 1);
  CHECK(e["source"] == rr::Json{{"component", "test-controller"}});
  CHECK(e["reportingComponent"] == "test-controller");
  CHECK(rr::Time(e["firstTimestamp"].get<std::string>()).valid());
  CHECK(e["lastTimestamp"] == e["firstTimestamp"]);
  CHECK(f.logs->empty());
}

TEST_CASE("client event recorder: a repeat bumps count; a different message is a new Event") {
  EventsFixture f;
  f.recorder->event(test_resource(), rr::event_warning, "Failed", "one");
  f.recorder->event(test_resource(), rr::event_warning, "Failed", "one");
  f.recorder->event(test_resource(), rr::event_warning, "Failed", "one");
  auto events = events_in(*f.cluster, "test-namespace");
  REQUIRE(events.size() == 1);
  CHECK(events[0]["count"] == 3);

  f.recorder->event(test_resource(), rr::event_warning, "Failed", "two");
  f.recorder->event(test_resource(), rr::event_normal, "Failed", "one");  // another type
  events = events_in(*f.cluster, "test-namespace");
  CHECK(events.size() == 3);
}

TEST_CASE("client event recorder: remembers the 4096 most recently used events") {
  EventsFixture f;
  // The counts of the Event objects carrying `message`, one entry per object.
  auto counts_of = [&](const std::string& message) {
    std::vector<std::int64_t> counts;
    for (const rr::Json& e : events_in(*f.cluster, "test-namespace")) {
      if (e["message"] == message) counts.push_back(e["count"].get<std::int64_t>());
    }
    return counts;
  };
  f.recorder->event(test_resource(), rr::event_normal, "Kept", "used again");
  f.recorder->event(test_resource(), rr::event_normal, "Old", "forgotten");
  for (int i = 0; i < 4094; ++i) f.recorder->event(test_resource(), rr::event_normal, "Fill", std::to_string(i));
  f.recorder->event(test_resource(), rr::event_normal, "Kept", "used again");  // now the most recent
  f.recorder->event(test_resource(), rr::event_normal, "New", "evicts the least recently used");
  // "forgotten" was evicted: its repeat is a new Event; "used again" was not: its count grows.
  f.recorder->event(test_resource(), rr::event_normal, "Old", "forgotten");
  f.recorder->event(test_resource(), rr::event_normal, "Kept", "used again");
  CHECK(counts_of("forgotten") == std::vector<std::int64_t>{1, 1});
  CHECK(counts_of("used again") == std::vector<std::int64_t>{3});
  CHECK(events_in(*f.cluster, "test-namespace").size() == 4098);
}

TEST_CASE("client event recorder: an Event deleted meanwhile is created again") {
  EventsFixture f;
  f.recorder->event(test_resource(), rr::event_normal, "Synced", "ok");
  auto events = events_in(*f.cluster, "test-namespace");
  REQUIRE(events.size() == 1);
  f.cluster->remove(event_kind, rr::key_of(events[0]));

  f.recorder->event(test_resource(), rr::event_normal, "Synced", "ok");
  events = events_in(*f.cluster, "test-namespace");
  REQUIRE(events.size() == 1);
  CHECK(events[0]["count"] == 1);
  CHECK(f.logs->empty());
}

TEST_CASE("client event recorder: events about cluster-scoped objects go to the default namespace") {
  EventsFixture f;
  rr::Json ns_object = {{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "team"}, {"uid", "u"}}}};
  f.recorder->record(rr::Event{rr::event_target_of(ns_object), "Normal", "Seen", "hello"});
  const auto events = events_in(*f.cluster, "default");
  REQUIRE(events.size() == 1);
  CHECK_FALSE(events[0]["involvedObject"].contains("namespace"));
  CHECK(events[0]["involvedObject"]["kind"] == "Namespace");
}

TEST_CASE("client event recorder: failures are logged, never thrown") {
  EventsFixture f(false);  // the cluster does not serve Events: every write is 404
  CHECK_NOTHROW(f.recorder->event(test_resource(), rr::event_normal, "Created", "x"));
  REQUIRE(f.logs->size() == 1);
  CHECK((*f.logs)[0].level == rr::LogLevel::Error);
  CHECK((*f.logs)[0].message == "unable to record event Created on TestResource test-namespace/test-resource");
  CHECK_FALSE((*f.logs)[0].error.empty());
}
