#include "gizmo_hooks.hpp"

#include <string>

#include "banner.hpp"

namespace gizmo {
namespace {

std::string greeting_of(const Gizmo& gizmo) {
  return banner(gizmo.spec && gizmo.spec->name ? *gizmo.spec->name : "world");
}

}  // namespace

rr::Error GizmoHooks::greeting_sync(rr::Context& /*ctx*/, Gizmo& gizmo) const {
  gizmo.status.emplace().greeting = greeting_of(gizmo);
  return {};
}

rr::Desired<ConfigMap> GizmoHooks::notes_desired(rr::Context& /*ctx*/, const Gizmo& gizmo) const {
  ConfigMap notes;
  notes.metadata.namespace_ = gizmo.metadata.namespace_;
  notes.metadata.name = gizmo.metadata.name + "-notes";
  notes.data.emplace()["greeting"] = greeting_of(gizmo);
  return notes;
}

void GizmoHooks::notes_merge(ConfigMap& current, const ConfigMap& desired) const {
  current.metadata.labels = desired.metadata.labels;
  current.data = desired.data;
}

void GizmoHooks::notes_reflect(rr::Context& /*ctx*/, Gizmo& /*gizmo*/, const ConfigMap* /*child*/,
                               const rr::Error& /*err*/) const {}

}  // namespace gizmo
