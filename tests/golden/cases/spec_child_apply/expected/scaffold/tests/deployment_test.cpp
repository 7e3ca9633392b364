// Step Deployment of the WebApp reconciler (child Deployment, server-side apply), on its own.
// A table of cases, each stating the world before, the WebApp handed in and
// everything the step should do (nothing else may happen). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include "web_app_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using webapp::WebApp;
using Case = rr::testing::SubReconcilerTestCase<WebApp>;

// The WebApp the cases start from.
WebApp given_web_app() {
  WebApp web_app;
  web_app.metadata.namespace_ = "test-namespace";
  web_app.metadata.name = "test-web-app";
  return web_app;
}

// The step under test, as the wiring builds it, with default hooks. To test
// with fakes in the hooks, pass std::make_shared<const webapp::WebAppHooks>(...).
rr::SubReconciler<WebApp> step(const Case&, const rr::Config&) {
  return webapp::WebAppDeploymentReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppDeploymentReconciler", WebApp, step) {
  const WebApp web_app = given_web_app();
  return rr::testing::SubReconcilerTests<WebApp>{
      {"as scaffolded, the step leaves the WebApp as it is", {.resource = web_app}},
      // TODO(you): a case per thing the step does, for example:
      // {"applies the Deployment", {
      //     .resource = web_app,
      //     .expect_resource = /* web_app with what deployment_reflect reports */,
      //     .expect_events = {rr::testing::new_event(web_app, rr::event_normal, "Created",
      //                                              "Created Deployment \"<name>\"")},
      //     // The DeploymentApply deployment_desired returns, with the namespace and the controller
      //     // reference the step adds, applied by field manager "webapp" with force.
      //     .expect_applies = {rr::testing::new_apply(DeploymentApply{/* ... */}, "webapp")},
      // }},
      // {"nothing is applied while what the step applied last is still desired", {
      //     .resource = web_app,
      //     .given_objects = {/* the Deployment with the managedFields entry of "webapp" */},
      // }},
  };
}
