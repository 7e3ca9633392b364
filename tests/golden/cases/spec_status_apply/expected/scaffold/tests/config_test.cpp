// Step Config of the WebApp reconciler (sync, tracks ConfigMap), on its own.
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
  return webapp::WebAppConfigReconciler();
}

}  // namespace

RR_SUB_RECONCILER_TESTS("WebAppConfigReconciler", WebApp, step) {
  const WebApp web_app = given_web_app();
  return rr::testing::SubReconcilerTests<WebApp>{
      {"as scaffolded, the step leaves the WebApp as it is", {.resource = web_app}},
      // TODO(you): a case per thing the step does, for example:
      // {"records what it found in the status", {
      //     .resource = web_app,
      //     .given_objects = {/* what the hook reads */},
      //     .expect_resource = /* web_app with the status it should have */,
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "ConfigMap", "test-namespace", "<name>")
      //             .by("test-namespace", "test-web-app")},
      // }},
      // {"a failing read of a ConfigMap is an error", {
      //     .resource = web_app,
      //     .with_reactors = {rr::testing::induce_failure("get", "ConfigMap")},
      //     .expect_tracks = {
      //         rr::testing::create_track_request("", "ConfigMap", "test-namespace", "<name>")
      //             .by("test-namespace", "test-web-app")},
      //     .should_err = true,
      // }},
  };
}
