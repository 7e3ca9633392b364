// The hooks of the Gizmo reconciler (tests/cmake/consumer): user code, as `rrgen generate
// --scaffold` started it and a user filled it in.
#pragma once

#include "gizmo_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace gizmo {

struct GizmoHooks {
  // Greeting: status.greeting says hello to spec.name.
  rr::Error greeting_sync(rr::Context& ctx, Gizmo& gizmo) const;

  // Notes: a ConfigMap "<gizmo>-notes" holding the greeting.
  rr::Desired<ConfigMap> notes_desired(rr::Context& ctx, const Gizmo& gizmo) const;
  void notes_merge(ConfigMap& current, const ConfigMap& desired) const;
  void notes_reflect(rr::Context& ctx, Gizmo& gizmo, const ConfigMap* child, const rr::Error& err) const;
};

}  // namespace gizmo
