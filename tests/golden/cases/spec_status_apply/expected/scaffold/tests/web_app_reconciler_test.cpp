// The WebApp reconciler: its steps in order, then the status it computed, applied.
// A table of cases over the whole reconciler: the world before, the request and
// everything the reconciler should do (nothing else may happen). With
// `statusWrite: apply` the status goes out as a server-side apply of the status
// subresource: expect it in .expect_status_applies (new_status_apply: the whole
// status, applied by field manager "webapp" with force). This file is
// yours: `rrgen generate --scaffold` wrote it once and never overwrites it.
// docs/testing-reconcilers.md describes every field of a case;
// docs/runtime/02-resource-reconciler.md the status apply.
#include <doctest/doctest.h>

#include "web_app_hooks.hpp"
#include "rr/testing/registration.hpp"

RR_RECONCILER_TESTS("WebAppReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return webapp::WebAppReconciler(config);
}) {
  const rr::Request request{"test-namespace", "test-web-app"};
  return rr::testing::ReconcilerTests{
      {"as scaffolded, a WebApp that does not exist is left alone", {.request = request}},
      // TODO(you): a case per thing the reconciler does, for example:
      // {"applies the status it computed", {
      //     .request = request,
      //     .given_objects = {/* the WebApp */},
      //     .expect_events = {rr::testing::new_event(/* the WebApp */, rr::event_normal,
      //                                              "StatusUpdated", "Updated status")},
      //     .expect_status_applies = {rr::testing::new_status_apply(/* the WebApp with
      //                                                               its status */, "webapp")},
      // }},
  };
}
