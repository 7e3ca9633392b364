#include "rr/testing/expect_config.hpp"

#include <functional>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/testing/json_diff.hpp"
#include "rr/testing/normalize.hpp"

namespace rr::testing {
namespace {

using Differ = std::function<std::string(const Json& expected, const Json& actual)>;

// The reconciler.io comparison of one kind of action: index by index, then the surplus.
// `label` names one action ("Patch"), `plural` the expectation list ("Patches").
void compare_in_order(const FailureSink& sink, const std::string& label, const std::string& plural,
                      const std::string& config_suffix, const std::vector<Json>& expected,
                      const std::vector<Json>& actual, const Differ& differ) {
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const std::string which = "Expect" + plural + "[" + std::to_string(i) + "]";
    if (i >= actual.size()) {
      sink({Severity::Error, which + " not observed" + config_suffix + ": " + describe_json(expected[i])});
      continue;
    }
    if (std::string diff = differ(expected[i], actual[i]); !diff.empty()) {
      sink({Severity::Error, which + " differs" + config_suffix + " (-expected, +actual):\n" + diff});
    }
  }
  for (std::size_t i = expected.size(); i < actual.size(); ++i) {
    sink({Severity::Error, "Unexpected " + label + " observed" + config_suffix + ": " + describe_json(actual[i])});
  }
}

std::vector<Json> jsons(const std::vector<AnyObject>& objects) {
  std::vector<Json> out;
  out.reserve(objects.size());
  for (const auto& o : objects) out.push_back(o.json());
  return out;
}

template <class Ref>
std::vector<Json> jsons(const std::vector<Ref>& refs) {
  std::vector<Json> out;
  out.reserve(refs.size());
  for (const auto& r : refs) out.push_back(as_json(r));
  return out;
}

Differ objects_differ(ObjectComparison comparison) {
  return [comparison](const Json& e, const Json& a) { return diff_objects(e, a, comparison); };
}

std::string config_suffix(const std::string& name) {
  if (name.empty() || name == "default") return {};
  return " for config " + Json(name).dump();
}

WallClock clock_of(const std::optional<std::chrono::system_clock::time_point>& now) {
  if (now) return [t = *now] { return t; };
  return [] { return std::chrono::system_clock::now(); };
}

std::shared_ptr<TestClient> make_client(const ExpectConfig& c, std::vector<Reactor> reactors) {
  ClusterOptions options;
  options.clock = clock_of(c.now);
  options.counter_generate_name = true;
  return std::make_shared<TestClient>(std::make_shared<Cluster>(std::move(options)),
                                      TestClientOptions{std::move(reactors), c.status_subresource_types});
}

// Kinds the test names are served by both stores from the start, with their admission; any
// other kind is registered on first use.
void register_kinds(TestClient& client, const ExpectConfig& c) {
  for (const auto* list :
       {&c.given_objects, &c.api_given_objects, &c.expect_creates, &c.expect_updates, &c.expect_status_updates}) {
    for (const auto& o : *list) client.register_kind(o.kind(), o.admit());
  }
}

}  // namespace

Config ExpectConfig::config() {
  if (state) return state->config;
  auto built = std::make_shared<ExpectState>();
  built->client = make_client(*this, with_reactors);
  built->api_reader = make_client(*this, {});
  register_kinds(*built->client, *this);
  register_kinds(*built->api_reader, *this);
  for (const auto& o : given_objects) built->client->add_given(o);
  for (const auto& o : api_given_objects) built->api_reader->add_given(o);
  built->tracker = std::make_shared<RecordingTracker>(make_tracker(std::chrono::hours(24), clock_of(now)));
  for (const auto& t : given_tracks) built->tracker->seed(t);
  built->recorder = std::make_shared<RecordingEventRecorder>();
  built->config.client = built->client;
  built->config.api_reader = built->api_reader;
  built->config.tracker = built->tracker;
  built->config.recorder = built->recorder;
  state = std::move(built);
  return state->config;
}

TestClient& ExpectConfig::client() {
  config();
  return *state->client;
}
TestClient& ExpectConfig::api_reader() {
  config();
  return *state->api_reader;
}
RecordingTracker& ExpectConfig::tracker() {
  config();
  return *state->tracker;
}
RecordingEventRecorder& ExpectConfig::recorder() {
  config();
  return *state->recorder;
}

void ExpectConfig::assert_expectations(const FailureSink& sink, const char* file, int line) {
  const FailureSink& out = sink ? sink : doctest_sink(file, line);
  assert_client_expectations(out);
  assert_recorder_expectations(out);
  assert_tracker_expectations(out);
}

void ExpectConfig::assert_client_expectations(const FailureSink& sink) {
  TestClient& c = client();
  const std::string suffix = config_suffix(name);
  const Differ exact = [](const Json& e, const Json& a) { return diff_json(e, a); };
  compare_in_order(sink, "Create", "Creates", suffix, jsons(expect_creates), c.creates(),
                   objects_differ(ObjectComparison::CreateOrUpdate));
  compare_in_order(sink, "Update", "Updates", suffix, jsons(expect_updates), c.updates(),
                   objects_differ(ObjectComparison::CreateOrUpdate));
  compare_in_order(sink, "Patch", "Patches", suffix, jsons(expect_patches), jsons(c.patches()), exact);
  compare_in_order(sink, "Delete", "Deletes", suffix, jsons(expect_deletes), jsons(c.deletes()), exact);
  compare_in_order(sink, "DeleteCollection", "DeleteCollections", suffix, jsons(expect_delete_collections),
                   jsons(c.delete_collections()), exact);
  compare_in_order(sink, "StatusUpdate", "StatusUpdates", suffix, jsons(expect_status_updates), c.status_updates(),
                   objects_differ(ObjectComparison::StatusUpdate));
  compare_in_order(sink, "StatusPatch", "StatusPatches", suffix, jsons(expect_status_patches),
                   jsons(c.status_patches()), exact);
  compare_in_order(sink, "Apply", "Applies", suffix, jsons(expect_applies), jsons(c.applies()), exact);
  // A status apply carries the conditions a ResourceReconciler stamped with the time it ran: as
  // for StatusUpdate, every lastTransitionTime is ignored.
  const Differ status_apply = [](const Json& e, const Json& a) {
    return diff_json(drop_last_transition_times(e), drop_last_transition_times(a));
  };
  compare_in_order(sink, "StatusApply", "StatusApplies", suffix, jsons(expect_status_applies),
                   jsons(c.status_applies()), status_apply);
}

void ExpectConfig::assert_recorder_expectations(const FailureSink& sink) {
  compare_in_order(sink, "Event", "Events", config_suffix(name), jsons(expect_events), jsons(recorder().events()),
                   [](const Json& e, const Json& a) { return diff_json(e, a); });
}

void ExpectConfig::assert_tracker_expectations(const FailureSink& sink) {
  compare_in_order(sink, "Track", "Tracks", config_suffix(name), jsons(expect_tracks), jsons(tracker().requests()),
                   [](const Json& e, const Json& a) { return diff_json(e, a); });
}

}  // namespace rr::testing
