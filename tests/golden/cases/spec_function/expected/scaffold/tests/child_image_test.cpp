// Step ChildImage of the Function reconciler (child Image), on its own.
// A table of cases, each stating the world before, the Function handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "function_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Function;
using Case = rr::testing::SubReconcilerTestCase<Function>;

// The Function the cases start from.
Function given_function() {
  Function function;
  function.metadata.namespace_ = "test-namespace";
  function.metadata.name = "test-function";
  return function;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const fnsample::FunctionHooks>(...).
rr::SubReconciler<Function> step(const Case&, const rr::Config&) {
  return fnsample::FunctionChildImageReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("FunctionChildImageReconciler", Function, step) {
  const Function function = given_function();
  return rr::testing::SubReconcilerTests<Function>{
      {"as scaffolded, the step leaves the Function as it is", {.resource = function}},
      // TODO(you): a case per thing the step does, for example:
      // {"creates the Image", {
      //     .resource = function,
      //     .expect_resource = /* function with what child_image_reflect reports */,
      //     .expect_events = {rr::testing::new_event(function, rr::event_normal, "Created",
      //                                              "Created Image \"<name>\"")},
      //     .expect_creates = {/* the Image child_image_desired returns */},
      // }},
      // {"an existing Image is updated to what is desired", {
      //     .resource = function,
      //     .given_objects = {/* the Image as it is */},
      //     .expect_events = {rr::testing::new_event(function, rr::event_normal, "Updated",
      //                                              "Updated Image \"<name>\"")},
      //     .expect_updates = {/* the Image after child_image_merge */},
      // }},
  };
}
