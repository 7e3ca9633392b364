// The hooks of the Board reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (board_reconciler.cpp) calls these through one shared
// `const BoardHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   BoardReconciler(config, std::make_shared<const BoardHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once

#include "board_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace board {

struct BoardHooks {
  // ---- Summary: sync, tracks Secret (reconciler.yaml:20:5) --------------------------------------

  // Step Summary's work on the Board: read what it needs, compute, call outside the cluster, and
  // write the outcome to its status. An error stops the steps after it and is retried with backoff.
  // Read Secrets through rr::track_and_get (or track_and_try_get, track_and_list): a change re-runs
  // the step.
  rr::Error summary_sync(rr::Context& ctx, Board& resource) const;

  // ---- Page: child ConfigMap (reconciler.yaml:22:5) ---------------------------------------------

  // The ConfigMap that should exist for the Board: a child, std::nullopt (none: an existing one is
  // deleted) or an rr::Error (rr::err_only_reconcile_child_status(): leave the child as it is,
  // still reflect it).
  rr::Desired<ConfigMap> page_desired(rr::Context& ctx, const Board& resource) const;

  // Copies what this step owns from desired onto current before an update (labels, spec ...); what
  // it leaves alone (server defaults, other controllers' fields) is kept.
  void page_merge(ConfigMap& current, const ConfigMap& desired) const;

  // Reflects the ConfigMap as persisted (nullptr: none) or the error that kept it from being
  // written (AlreadyExists, Forbidden, Invalid) onto the Board's status.
  void page_reflect(rr::Context& ctx, Board& resource, const ConfigMap* child,
                    const rr::Error& err) const;
};

}  // namespace board
