// The hooks of the Mirror reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (mirror_reconciler.cpp) calls these through one shared
// `const MirrorHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   MirrorReconciler(config, std::make_shared<const MirrorHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once

#include "mirror_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"

namespace mirror {

struct MirrorHooks {
  // ---- Copy: sync (reconciler.yaml:8:5) ---------------------------------------------------------

  // Step Copy's work on the ConfigMap: read what it needs, compute, call outside the cluster, and
  // write the outcome to its status. An error stops the steps after it and is retried with backoff.
  rr::Error copy_sync(rr::Context& ctx, ConfigMap& config_map) const;
};

}  // namespace mirror
