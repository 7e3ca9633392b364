// Step Credentials of the Gateway reconciler (sync, tracks Secret), on its own.
// A table of cases, each stating the world before, the Gateway handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "gateway_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using gateway::Gateway;
using Case = rr::testing::SubReconcilerTestCase<Gateway>;

// The Gateway the cases start from.
Gateway given_resource() {
  Gateway resource;
  resource.metadata.namespace_ = "test-namespace";
  resource.metadata.name = "test-gateway";
  return resource;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const gateway::GatewayHooks>(...).
rr::SubReconciler<Gateway> step(const Case&, const rr::Config&) {
  return gateway::GatewayCredentialsReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("GatewayCredentialsReconciler", Gateway, step) {
  const Gateway resource = given_resource();
  return rr::testing::SubReconcilerTests<Gateway>{
      {"as scaffolded, the step leaves the Gateway as it is", {.resource = resource}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = resource,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* resource with the status it should have */,
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "Secret", "test-namespace", "<name>")
      //             .by("test-namespace", "test-gateway")},
      // }},
      // {"a failing read of a Secret is an error", {
      //     .resource = resource,
      //     .with_reactors = {rr::testing::induce_failure("get", "Secret")},
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "Secret", "test-namespace", "<name>")
      //             .by("test-namespace", "test-gateway")},
      //     .should_err = true,
      // }},
  };
}
