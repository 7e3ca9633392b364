// Step Summary of the Board reconciler (sync, tracks Secret), on its own.
// A table of cases, each stating the world before, the Board handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "board_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using board::Board;
using Case = rr::testing::SubReconcilerTestCase<Board>;

// The Board the cases start from.
Board given_resource() {
  Board resource;
  resource.metadata.namespace_ = "test-namespace";
  resource.metadata.name = "test-board";
  return resource;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const board::BoardHooks>(...).
rr::SubReconciler<Board> step(const Case&, const rr::Config&) {
  return board::BoardSummaryReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("BoardSummaryReconciler", Board, step) {
  const Board resource = given_resource();
  return rr::testing::SubReconcilerTests<Board>{
      {"as scaffolded, the step leaves the Board as it is", {.resource = resource}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = resource,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* resource with the status it should have */,
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "Secret", "test-namespace", "<name>")
      //             .by("test-namespace", "test-board")},
      // }},
      // {"a failing read of a Secret is an error", {
      //     .resource = resource,
      //     .with_reactors = {rr::testing::induce_failure("get", "Secret")},
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "Secret", "test-namespace", "<name>")
      //             .by("test-namespace", "test-board")},
      //     .should_err = true,
      // }},
  };
}
