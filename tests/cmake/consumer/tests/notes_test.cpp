// Step Notes of the Gizmo reconciler: user tests against rrgen's harness.
#include <doctest/doctest.h>

#include "gizmo_hooks.hpp"
#include "rr/testing/registration.hpp"

namespace {

using gizmo::ConfigMap;
using gizmo::Gizmo;
using Case = rr::testing::SubReconcilerTestCase<Gizmo>;

Gizmo given_gizmo() {
  Gizmo gizmo;
  gizmo.metadata.namespace_ = "test-namespace";
  gizmo.metadata.name = "test-gizmo";
  gizmo.metadata.uid = "gizmo-uid";
  return gizmo;
}

ConfigMap notes() {
  ConfigMap map;
  map.metadata.namespace_ = "test-namespace";
  map.metadata.name = "test-gizmo-notes";
  rr::OwnerReference owner;
  owner.api_version = "consumer.rrgen.dev/v1";
  owner.kind = "Gizmo";
  owner.name = "test-gizmo";
  owner.uid = "gizmo-uid";
  owner.controller = true;
  owner.block_owner_deletion = true;
  map.metadata.owner_references = {owner};
  map.data.emplace()["greeting"] = "Hello, world!";
  return map;
}

}  // namespace

RR_SUB_RECONCILER_TESTS("GizmoNotesReconciler", Gizmo, [](const Case&, const rr::Config&) {
  return gizmo::GizmoNotesReconciler();
}) {
  const Gizmo gizmo = given_gizmo();
  return rr::testing::SubReconcilerTests<Gizmo>{
      {"creates the notes ConfigMap",
       {
           .resource = gizmo,
           .expect_events = {rr::testing::new_event(gizmo, rr::event_normal, "Created",
                                                    R"(Created ConfigMap "test-gizmo-notes")")},
           .expect_creates = {notes()},
       }},
  };
}
