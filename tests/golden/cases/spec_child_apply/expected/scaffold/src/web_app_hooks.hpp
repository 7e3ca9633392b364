// The hooks of the WebApp reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (web_app_reconciler.cpp) calls these through one shared
// `const WebAppHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   WebAppReconciler(config, std::make_shared<const WebAppHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once

#include "web_app_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace webapp {

struct WebAppHooks {
  // ---- Deployment: child Deployment, server-side apply (reconciler.yaml:10:5) -------------------

  // The DeploymentApply (the fields of the Deployment this step owns; it must set metadata.name)
  // for the WebApp, applied by server-side apply with force when it differs from what the step
  // applied last: a configuration, std::nullopt (none: an existing child is deleted) or an
  // rr::Error (rr::err_only_reconcile_child_status(): leave the child as it is, still reflect it).
  rr::Desired<DeploymentApply> deployment_desired(rr::Context& ctx, const WebApp& web_app) const;

  // Reflects the Deployment as persisted (nullptr: none) or the error that kept it from being
  // written (AlreadyExists, Forbidden, Invalid) onto the WebApp's status.
  void deployment_reflect(rr::Context& ctx, WebApp& web_app, const Deployment* child,
                          const rr::Error& err) const;

  // ---- Service: child Service (reconciler.yaml:13:5) --------------------------------------------

  // The Service that should exist for the WebApp: a child, std::nullopt (none: an existing one is
  // deleted) or an rr::Error (rr::err_only_reconcile_child_status(): leave the child as it is,
  // still reflect it).
  rr::Desired<Service> service_desired(rr::Context& ctx, const WebApp& web_app) const;

  // Copies what this step owns from desired onto current before an update (labels, spec ...); what
  // it leaves alone (server defaults, other controllers' fields) is kept.
  void service_merge(Service& current, const Service& desired) const;

  // Reflects the Service as persisted (nullptr: none) or the error that kept it from being written
  // (AlreadyExists, Forbidden, Invalid) onto the WebApp's status.
  void service_reflect(rr::Context& ctx, WebApp& web_app, const Service* child,
                       const rr::Error& err) const;
};

}  // namespace webapp
