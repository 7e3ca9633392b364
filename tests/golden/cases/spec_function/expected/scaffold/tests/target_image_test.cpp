// Step TargetImage of the Function reconciler (sync, tracks ConfigMap), on its own.
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
  return fnsample::FunctionTargetImageReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("FunctionTargetImageReconciler", Function, step) {
  const Function function = given_function();
  return rr::testing::SubReconcilerTests<Function>{
      {"as scaffolded, the step leaves the Function as it is", {.resource = function}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = function,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* function with the status it should have */,
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "ConfigMap", "test-namespace", "<name>")
      //             .by("test-namespace", "test-function")},
      // }},
      // {"a failing read of a ConfigMap is an error", {
      //     .resource = function,
      //     .with_reactors = {rr::testing::induce_failure("get", "ConfigMap")},
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "ConfigMap", "test-namespace", "<name>")
      //             .by("test-namespace", "test-function")},
      //     .should_err = true,
      // }},
  };
}
