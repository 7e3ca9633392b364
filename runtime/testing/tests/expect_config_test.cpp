#include "rr/testing/expect_config.hpp"

#include <doctest/doctest.h>

#include "rr/core/json.hpp"
#include "strings_support.hpp"

#include "rr/testing/json_diff.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

using rr::testing::CapturedFailures;
using rr::testing::ExpectConfig;
using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

namespace {

TestChild child(std::string name) {
  TestChild c;
  c.metadata.namespace_ = "ns";
  c.metadata.name = std::move(name);
  return c;
}

TestResource resource(std::string image) {
  TestResource r;
  r.metadata.namespace_ = "ns";
  r.metadata.name = "r";
  r.spec.emplace().image = std::move(image);
  return r;
}

std::string shown(const TestChild& c) { return rr::testing::describe_json(rr::to_object_json(c)); }

Strings failures_of(ExpectConfig& c) {
  CapturedFailures captured;
  c.assert_expectations(captured.sink());
  return captured.messages();
}

}  // namespace

TEST_CASE("ExpectConfig::config() builds the world once") {
  ExpectConfig c;
  rr::Config first = c.config();
  rr::Config second = c.config();
  CHECK(first.client == second.client);
  CHECK(first.tracker == second.tracker);
  CHECK(first.api_reader != first.client);
  CHECK(&c.client() == first.client.get());
}

TEST_CASE("ExpectConfig: the API reader is a separate store (Q10)") {
  ExpectConfig c{.given_objects = {child("given")}, .api_given_objects = {child("api")}};
  rr::Config config = c.config();
  CHECK(config.client->try_get<TestChild>({"ns", "given"}).has_value());
  CHECK_FALSE(config.client->try_get<TestChild>({"ns", "api"}).has_value());
  CHECK(config.api_reader->try_get<TestChild>({"ns", "api"}).has_value());
  CHECK_FALSE(config.api_reader->try_get<TestChild>({"ns", "given"}).has_value());

  config.client->create(child("new"));
  CHECK_FALSE(config.api_reader->try_get<TestChild>({"ns", "new"}).has_value());
}

TEST_CASE("ExpectConfig: given tracks seed the tracker and are not recorded") {
  ExpectConfig c{
      .given_tracks = {rr::testing::create_track_request("testing.rrgen.dev", "TestChild", "ns", "c").by("ns", "r")}};
  rr::Config config = c.config();
  CHECK(c.tracker().requests().empty());
  CHECK(config.tracker->get_observers(rr::to_object_json(child("c"))) == std::vector<rr::ObjectKey>{{"ns", "r"}});
  CHECK(failures_of(c).empty());
}

TEST_CASE("ExpectConfig: the stores' clock is `now`") {
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  ExpectConfig c{.now = now};
  TestChild created = c.config().client->create(child("c"));
  CHECK(created.metadata.creation_timestamp.str() == rr::Time::from(now).str());
}

TEST_CASE("assert_expectations: nothing expected and nothing done passes") {
  ExpectConfig c{.given_objects = {child("given")}};
  c.config();
  CHECK(failures_of(c).empty());
}

TEST_CASE("assert_expectations compares index by index: differs, not observed, unexpected") {
  ExpectConfig c{.expect_creates = {child("a"), child("b")}};
  rr::Config config = c.config();
  TestChild labelled = child("a");
  labelled.metadata.labels["x"] = "y";
  config.client->create(labelled);
  config.client->update(config.client->get<TestChild>("ns", "a"));

  CHECK(failures_of(c) ==
        Strings{
            "ExpectCreates[0] differs (-expected, +actual):\n  metadata.labels: -(absent) +{\"x\":\"y\"}",
            "ExpectCreates[1] not observed: " + shown(child("b")),
            "Unexpected Update observed: " + rr::testing::describe_json(c.client().updates()[0]),
        });
}

TEST_CASE("assert_expectations: order matters within a kind") {
  ExpectConfig c{.expect_creates = {child("b"), child("a")}};
  rr::Config config = c.config();
  config.client->create(child("a"));
  config.client->create(child("b"));
  CHECK(failures_of(c) == Strings{
                              "ExpectCreates[0] differs (-expected, +actual):\n  metadata.name: -\"b\" +\"a\"",
                              "ExpectCreates[1] differs (-expected, +actual):\n  metadata.name: -\"a\" +\"b\"",
                          });
}

TEST_CASE("assert_expectations names a config that is not the default one") {
  ExpectConfig c{.name = "other", .expect_deletes = {{"testing.rrgen.dev", "TestChild", "ns", "gone"}}};
  rr::Config config = c.config();
  config.client->create(child("a"));
  CHECK(
      failures_of(c) ==
      Strings{
          R"(Unexpected Create observed for config "other": )" + rr::testing::describe_json(c.client().creates()[0]),
          R"(ExpectDeletes[0] not observed for config "other": {"group":"testing.rrgen.dev","kind":"TestChild","name":"gone","namespace":"ns"})",
      });
}

TEST_CASE("assert_expectations: a status update is compared on its status only") {
  TestResource expected = resource("ignored");
  expected.status.emplace().latest_image = "img";
  ExpectConfig c{.given_objects = {resource("a")}, .expect_status_updates = {expected}};
  rr::Config config = c.config();
  TestResource stored = config.client->get<TestResource>("ns", "r");
  stored.status.emplace().latest_image = "img";
  config.client->update_status(stored);
  CHECK(failures_of(c).empty());

  ExpectConfig wrong{.given_objects = {resource("a")}, .expect_status_updates = {expected}};
  stored.status->latest_image = "other";
  wrong.config().client->update_status(stored);
  CHECK(failures_of(wrong) ==
        Strings{"ExpectStatusUpdates[0] differs (-expected, +actual):\n  status.latestImage: -\"img\" +\"other\""});
}

TEST_CASE("assert_expectations: patch bytes must match exactly") {
  ExpectConfig c{.given_objects = {child("a")},
                 .expect_patches = {{"testing.rrgen.dev", "TestChild", "ns", "a", "", rr::PatchType::Merge,
                                     R"({"metadata":{"labels":{"x":"y"}}})"}}};
  c.config().client->patch<TestChild>({"ns", "a"}, rr::PatchType::Merge, R"({"metadata": {"labels":{"x":"y"}}})");
  CHECK(failures_of(c) ==
        Strings{
            "ExpectPatches[0] differs (-expected, +actual):\n"
            R"(  patch: -"{\"metadata\":{\"labels\":{\"x\":\"y\"}}}" +"{\"metadata\": {\"labels\":{\"x\":\"y\"}}}")"});
}

TEST_CASE("assert_expectations: collection deletes compare selectors in canonical form") {
  ExpectConfig c{.expect_delete_collections = {{"testing.rrgen.dev", "TestChild", "ns", "a=1,b=2", ""}}};
  rr::ListOptions selected;
  selected.namespace_ = "ns";
  selected.label_selector = "b=2, a=1";
  c.config().client->remove_collection(rr::kind_info_of<TestChild>(), selected, {});
  CHECK(failures_of(c).empty());
}

TEST_CASE("assert_expectations: events and tracks, in order") {
  TestResource r = resource("a");
  ExpectConfig c{
      .expect_events = {rr::testing::new_event(r, rr::event_normal, "Created", "Created TestChild \"c\""),
                        rr::testing::new_event(r, rr::event_warning, "Failed", "boom")},
      .expect_tracks =
          {rr::testing::new_track_request(child("c"), r),
           rr::testing::create_selector_track_request("testing.rrgen.dev", "TestChild", "ns", "b=2,a=1").by("ns", "r")},
  };
  rr::Config config = c.config();
  config.recorder->event(r, rr::event_normal, "Created", "Created TestChild \"c\"");
  config.recorder->event(r, rr::event_normal, "Failed", "boom");
  config.tracker->track_object(child("c"), {"ns", "r"});
  config.tracker->track_reference({"testing.rrgen.dev", "TestChild", "ns", "", rr::Selector::parse("a=1,b=2")},
                                  {"ns", "r"});
  CHECK(failures_of(c) == Strings{"ExpectEvents[1] differs (-expected, +actual):\n  type: -\"Warning\" +\"Normal\""});
}

TEST_CASE("assert_expectations without a sink fails the running doctest test case" * doctest::should_fail()) {
  ExpectConfig c{.expect_creates = {child("never")}};
  c.config();
  c.assert_expectations();
}
