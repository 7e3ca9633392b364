// Step Proxy of the Gateway reconciler (child Deployment), on its own.
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
  return gateway::GatewayProxyReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("GatewayProxyReconciler", Gateway, step) {
  const Gateway resource = given_resource();
  return rr::testing::SubReconcilerTests<Gateway>{
      {"as scaffolded, the step leaves the Gateway as it is", {.resource = resource}},
      // TODO(you): a case per thing the step does, for example:
      // {"creates the Deployment", {
      //     .resource = resource,
      //     .expect_resource = /* resource with what proxy_reflect reports */,
      //     .expect_events = {rr::testing::new_event(resource, rr::event_normal, "Created",
      //                                              "Created Deployment \"<name>\"")},
      //     .expect_creates = {/* the Deployment proxy_desired returns */},
      // }},
      // {"an existing Deployment is updated to what is desired", {
      //     .resource = resource,
      //     .given_objects = {/* the Deployment as it is */},
      //     .expect_events = {rr::testing::new_event(resource, rr::event_normal, "Updated",
      //                                              "Updated Deployment \"<name>\"")},
      //     .expect_updates = {/* the Deployment after proxy_merge */},
      // }},
  };
}
