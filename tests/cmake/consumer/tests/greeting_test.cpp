// Step Greeting of the Gizmo reconciler: user tests against rrgen's harness.
#include <doctest/doctest.h>

#include "gizmo_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using gizmo::Gizmo;
using Case = rr::testing::SubReconcilerTestCase<Gizmo>;

Gizmo given_gizmo() {
  Gizmo gizmo;
  gizmo.metadata.namespace_ = "test-namespace";
  gizmo.metadata.name = "test-gizmo";
  return gizmo;
}

Gizmo greeted(Gizmo gizmo, const char* greeting) {
  gizmo.status.emplace().greeting = greeting;
  return gizmo;
}

}  // namespace

RR_SUB_RECONCILER_TESTS("GizmoGreetingReconciler", Gizmo, [](const Case&, const rr::Config&) {
  return gizmo::GizmoGreetingReconciler();
}) {
  Gizmo named = given_gizmo();
  named.spec.emplace().name = "CMake";
  return rr::testing::SubReconcilerTests<Gizmo>{
      {"the status reports the greeting", {.resource = named, .expect_resource = greeted(named, "Hello, CMake!")}},
      {"a Gizmo without a spec greets the world",
       {.resource = given_gizmo(), .expect_resource = greeted(given_gizmo(), "Hello, world!")}},
  };
}
