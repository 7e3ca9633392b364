// The hooks of the Function reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (function_reconciler.cpp) calls these through one shared
// `const FunctionHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   FunctionReconciler(config, std::make_shared<const FunctionHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once

#include "function_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace fnsample {

struct FunctionHooks {
  // ---- TargetImage: sync, tracks ConfigMap (reconciler.yaml:12:5) -------------------------------

  // Step TargetImage's work on the Function: read what it needs, compute, call outside the cluster,
  // and write the outcome to its status. An error stops the steps after it and is retried with
  // backoff. Read ConfigMaps through rr::track_and_get (or track_and_try_get, track_and_list): a
  // change re-runs the step.
  rr::Error target_image_sync(rr::Context& ctx, Function& function) const;

  // ---- ChildImage: child Image (reconciler.yaml:14:5) -------------------------------------------

  // The Image that should exist for the Function: a child, std::nullopt (none: an existing one is
  // deleted) or an rr::Error (rr::err_only_reconcile_child_status(): leave the child as it is,
  // still reflect it).
  rr::Desired<Image> child_image_desired(rr::Context& ctx, const Function& function) const;

  // Copies what this step owns from desired onto current before an update (labels, spec ...); what
  // it leaves alone (server defaults, other controllers' fields) is kept.
  void child_image_merge(Image& current, const Image& desired) const;

  // Reflects the Image as persisted (nullptr: none) or the error that kept it from being written
  // (AlreadyExists, Forbidden, Invalid) onto the Function's status.
  void child_image_reflect(rr::Context& ctx, Function& function, const Image* child,
                           const rr::Error& err) const;
};

}  // namespace fnsample
