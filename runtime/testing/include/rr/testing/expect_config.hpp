// ExpectConfig: the world one rr::Config sees in a test (given objects, reactors, tracks) and what
// the reconciler is expected to do through it. config() builds the Config over recording fakes;
// assert_expectations() compares what was observed with what was expected.
//
// Every kind of action is compared on its own, index by index, in order (the relative order of a
// create and an update is not checked). The messages are reconciler.io's:
//
//   ExpectCreates[0] not observed: {...}
//   ExpectCreates[0] differs (-expected, +actual):
//     spec.image: -"a" +"b"
//   Unexpected Create observed: {...}
//
// with ` for config "<name>"` after "not observed", "differs" and "observed" when the config is
// not the default one.
#pragma once
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/reconcilers/config.hpp"
#include "rr/testing/any_object.hpp"
#include "rr/testing/failure.hpp"
#include "rr/testing/reactor.hpp"
#include "rr/testing/recorders.hpp"
#include "rr/testing/refs.hpp"
#include "rr/testing/test_client.hpp"

namespace rr::testing {

// What config() builds: two independent stores (the client's and the API reader's, Q10), the
// recording tracker and event recorder, and the Config over them.
struct ExpectState {
  std::shared_ptr<TestClient> client{};
  std::shared_ptr<TestClient> api_reader{};
  std::shared_ptr<RecordingTracker> tracker{};
  std::shared_ptr<RecordingEventRecorder> recorder{};
  Config config{};
};

struct ExpectConfig {
  std::string name = "default";

  // --- the world ---
  // In the client's store at the start.
  std::vector<AnyObject> given_objects{};
  // In the API reader's store: a second, separate cluster. Writes through the client are not
  // seen there, and the client does not see these (reconciler.io's APIGivenObjects, Q10).
  std::vector<AnyObject> api_given_objects{};
  // Tracks that exist at the start; not counted as calls.
  std::vector<TrackRequest> given_tracks{};
  // Run, in order, before each call of the client reaches its store.
  std::vector<Reactor> with_reactors{};
  // Unset: each kind's own has_status.
  std::optional<std::vector<GroupVersionKind>> status_subresource_types{};
  // The clock of the stores (creationTimestamp, deletionTimestamp) and of the tracker; the
  // harness sets it to the test case's `now`. Unset: the wall clock.
  std::optional<std::chrono::system_clock::time_point> now{};

  // --- expected side effects, each list in order ---
  std::vector<AnyObject> expect_creates{};
  std::vector<AnyObject> expect_updates{};
  std::vector<PatchRef> expect_patches{};
  std::vector<DeleteRef> expect_deletes{};
  std::vector<DeleteCollectionRef> expect_delete_collections{};
  std::vector<AnyObject> expect_status_updates{};
  std::vector<PatchRef> expect_status_patches{};
  // Server-side applies (new_apply(config, manager), or an ApplyRef with the configuration as
  // JSON text), compared as JSON with a diff per field; status applies apart.
  std::vector<ApplyRef> expect_applies{};
  std::vector<ApplyRef> expect_status_applies{};
  std::vector<Event> expect_events{};
  std::vector<TrackRequest> expect_tracks{};

  // Built by the first config() call; later calls return the same Config. Copies of an
  // ExpectConfig share it. Leave it unset in tables.
  std::shared_ptr<ExpectState> state{};

  // Seeds the stores and the tracker; throws (std::invalid_argument, rr::ApiError) when a given
  // object cannot be stored.
  Config config();
  TestClient& client();
  TestClient& api_reader();
  RecordingTracker& tracker();
  RecordingEventRecorder& recorder();

  // Everything below reports through `sink`; with no sink, through doctest at the caller.
  void assert_expectations(const FailureSink& sink = {}, const char* file = __builtin_FILE(),
                           int line = __builtin_LINE());
  void assert_client_expectations(const FailureSink& sink);
  void assert_recorder_expectations(const FailureSink& sink);
  void assert_tracker_expectations(const FailureSink& sink);
};

}  // namespace rr::testing
