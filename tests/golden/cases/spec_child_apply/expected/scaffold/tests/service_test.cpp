// Step Service of the WebApp reconciler (child Service), on its own.
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
  return webapp::WebAppServiceReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppServiceReconciler", WebApp, step) {
  const WebApp web_app = given_web_app();
  return rr::testing::SubReconcilerTests<WebApp>{
      {"as scaffolded, the step leaves the WebApp as it is", {.resource = web_app}},
      // TODO(you): a case per thing the step does, for example:
      // {"creates the Service", {
      //     .resource = web_app,
      //     .expect_resource = /* web_app with what service_reflect reports */,
      //     .expect_events = {rr::testing::new_event(web_app, rr::event_normal, "Created",
      //                                              "Created Service \"<name>\"")},
      //     .expect_creates = {/* the Service service_desired returns */},
      // }},
      // {"an existing Service is updated to what is desired", {
      //     .resource = web_app,
      //     .given_objects = {/* the Service as it is */},
      //     .expect_events = {rr::testing::new_event(web_app, rr::event_normal, "Updated",
      //                                              "Updated Service \"<name>\"")},
      //     .expect_updates = {/* the Service after service_merge */},
      // }},
  };
}
