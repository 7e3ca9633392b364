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

namespace webapp {

struct WebAppHooks {
  // ---- Config: sync, tracks ConfigMap (reconciler.yaml:12:5) ------------------------------------

  // Step Config's work on the WebApp: read what it needs, compute, call outside the cluster, and
  // write the outcome to its status. An error stops the steps after it and is retried with backoff.
  // Read ConfigMaps through rr::track_and_get (or track_and_try_get, track_and_list): a change
  // re-runs the step.
  rr::Error config_sync(rr::Context& ctx, WebApp& web_app) const;
};

}  // namespace webapp
