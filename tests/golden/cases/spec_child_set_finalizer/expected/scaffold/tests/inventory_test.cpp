// Step Inventory of the Fleet reconciler (sync), on its own.
// A table of cases, each stating the world before, the Fleet handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "fleet_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fleet::Fleet;
using Case = rr::testing::SubReconcilerTestCase<Fleet>;

// The Fleet the cases start from.
Fleet given_resource() {
  Fleet resource;
  resource.metadata.name = "test-fleet";
  return resource;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const fleet::FleetHooks>(...).
rr::SubReconciler<Fleet> step(const Case&, const rr::Config&) {
  return fleet::FleetInventoryReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("FleetInventoryReconciler", Fleet, step) {
  const Fleet resource = given_resource();
  return rr::testing::SubReconcilerTests<Fleet>{
      {"as scaffolded, the step leaves the Fleet as it is", {.resource = resource}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = resource,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* resource with the status it should have */,
      // }},
  };
}
