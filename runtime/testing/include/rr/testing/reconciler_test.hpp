// Table tests of a root reconciler (reconciler.io's ReconcilerTestCase): given objects, a request,
// and everything the reconcile is expected to do.
//
//   rr::testing::ReconcilerTests{
//       {"creates the child", {
//           .request = {"my-namespace", "my-resource"},
//           .given_objects = {resource},
//           .expect_creates = {child},
//           .expect_events = {rr::testing::new_event(resource, rr::event_normal, "Created", "...")},
//       }},
//   }
//
// A run (reconciler.io testing/reconciler.go): prepare (an error is fatal) → build the default
// config and the additional ones → the factory makes the reconciler → recursive validation (a
// finding is fatal) → reconcile with `now` pinned → should_err → expected_result (only when there
// was no error; requeue_after ≠ 0 makes requeue false on both sides) → verify → the
// expectations of every config → clean_up (an error is reported, not fatal; it runs after a fatal
// failure too).
#pragma once
#include <any>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rr/reconcilers/root.hpp"
#include "rr/testing/any_object.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/testing/failure.hpp"
#include "rr/testing/reactor.hpp"
#include "rr/testing/refs.hpp"

namespace rr::testing {

struct ReconcilerTestCase {
  // The map key in ReconcilerTests.
  std::string name{};
  // When any case of a table is focused, only the focused ones run and the table fails, so a
  // focus is never committed by accident (all focused cases run: Q7).
  bool focus = false;
  bool skip = false;
  // Free-form values for the factory.
  std::map<std::string, std::any> metadata{};

  // --- inputs ---
  Request request{};
  std::vector<AnyObject> given_objects{};
  std::vector<AnyObject> api_given_objects{};  // the API reader's separate store (Q10)
  std::vector<TrackRequest> given_tracks{};
  std::vector<Reactor> with_reactors{};
  std::optional<std::vector<GroupVersionKind>> status_subresource_types{};

  // --- expected side effects, each list in order ---
  std::vector<TrackRequest> expect_tracks{};
  std::vector<Event> expect_events{};
  std::vector<AnyObject> expect_creates{};
  std::vector<AnyObject> expect_updates{};
  std::vector<PatchRef> expect_patches{};
  std::vector<DeleteRef> expect_deletes{};
  std::vector<DeleteCollectionRef> expect_delete_collections{};
  std::vector<AnyObject> expect_status_updates{};
  std::vector<PatchRef> expect_status_patches{};
  std::vector<ApplyRef> expect_applies{};  // server-side applies (refs.hpp new_apply)
  std::vector<ApplyRef> expect_status_applies{};
  // Further configs (for WithConfig), keyed by name; the reconciler finds them in
  // Context::additional_configs().
  std::map<std::string, ExpectConfig> additional_configs{};

  // --- outputs ---
  bool should_err = false;
  // Compared when the reconcile returned no error.
  Result expected_result{};
  std::function<void(const Result&, const Error&)> verify{};

  // --- lifecycle ---
  // Before anything else; an error is fatal.
  std::function<Error(const ReconcilerTestCase&)> prepare{};
  // Inside the reconcile, once the request's Context exists and before the reconciler runs
  // (seed the stash here).
  std::function<void(Context&)> prepare_context{};
  // At the end, whatever happened; an error fails the case.
  std::function<Error(const ReconcilerTestCase&)> clean_up{};
  // The pinned "now" of the request and the clock of the stores. Unset: the time the case starts.
  std::optional<std::chrono::system_clock::time_point> now{};
  // Sets the request's cancellation flag once elapsed.
  std::optional<std::chrono::nanoseconds> timeout{};
};

// Keyed by case name. Runs in name order (reconciler.io runs its map in random order).
using ReconcilerTests = std::map<std::string, ReconcilerTestCase>;
// Runs in the order listed.
using ReconcilerTestSuite = std::vector<ReconcilerTestCase>;

using ReconcilerFactory = std::function<Reconciler(const ReconcilerTestCase&, const Config&)>;

// One case, reporting to `sink`.
void run_case(const ReconcilerTestCase& tc, const ReconcilerFactory& factory, const FailureSink& sink);

// Every case of a table inside the current doctest test case (each failure names its case), or
// into `sink` when one is given. Focused cases only when there are any, and then a failure.
void run(const ReconcilerTests& tests, const ReconcilerFactory& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE());
void run(const ReconcilerTestSuite& suite, const ReconcilerFactory& factory, const FailureSink& sink = {},
         const char* file = __builtin_FILE(), int line = __builtin_LINE());

}  // namespace rr::testing
