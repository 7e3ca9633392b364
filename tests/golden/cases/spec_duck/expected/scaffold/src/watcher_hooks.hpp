// The hooks of the Watcher reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (watcher_reconciler.cpp) calls these through one shared
// `const WatcherHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   WatcherReconciler(config, std::make_shared<const WatcherHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once

#include "watcher_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"

namespace watcher {

struct WatcherHooks {
  // ---- MarkWatched: sync, tracks ConfigMap (reconciler.yaml:15:5) -------------------------------

  // Step MarkWatched's work on the ConditionsDuck: read what it needs, compute, call outside the
  // cluster, and write the outcome to its status. An error stops the steps after it and is retried
  // with backoff. Read ConfigMaps through rr::track_and_get (or track_and_try_get, track_and_list):
  // a change re-runs the step.
  rr::Error mark_watched_sync(rr::Context& ctx, ConditionsDuck& conditions_duck) const;

  // ---- Release: sync, behind the finalizer watcher.rrgen.dev/release (reconciler.yaml:17:5) -----

  // Step Release's work on the ConditionsDuck: read what it needs, compute, call outside the
  // cluster, and write the outcome to its status. An error stops the steps after it and is retried
  // with backoff.
  rr::Error release_sync(rr::Context& ctx, ConditionsDuck& conditions_duck) const;

  // Cleans up what sync allocated outside the cluster while the ConditionsDuck is being deleted.
  // The finalizer watcher.rrgen.dev/release keeps the ConditionsDuck until this succeeds. An error
  // stops the steps after it and is retried with backoff.
  rr::Error release_finalize(rr::Context& ctx, ConditionsDuck& conditions_duck) const;
};

}  // namespace watcher
