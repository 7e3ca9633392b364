// Step Page of the Board reconciler (child ConfigMap), on its own.
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
  return board::BoardPageReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("BoardPageReconciler", Board, step) {
  const Board resource = given_resource();
  return rr::testing::SubReconcilerTests<Board>{
      {"as scaffolded, the step leaves the Board as it is", {.resource = resource}},
      // TODO(you): a case per thing the step does, for example:
      // {"creates the ConfigMap", {
      //     .resource = resource,
      //     .expect_resource = /* resource with what page_reflect reports */,
      //     .expect_events = {rr::testing::new_event(resource, rr::event_normal, "Created",
      //                                              "Created ConfigMap \"<name>\"")},
      //     .expect_creates = {/* the ConfigMap page_desired returns */},
      // }},
      // {"an existing ConfigMap is updated to what is desired", {
      //     .resource = resource,
      //     .given_objects = {/* the ConfigMap as it is */},
      //     .expect_events = {rr::testing::new_event(resource, rr::event_normal, "Updated",
      //                                              "Updated ConfigMap \"<name>\"")},
      //     .expect_updates = {/* the ConfigMap after page_merge */},
      // }},
  };
}
