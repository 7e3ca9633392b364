// The hooks of the Fleet reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (fleet_reconciler.cpp) calls these through one shared
// `const FleetHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   FleetReconciler(config, std::make_shared<const FleetHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once
#include <string>

#include "fleet_reconciler.hpp"
#include "rr/client/options.hpp"
#include "rr/reconcilers/child_set.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/result.hpp"

namespace fleet {

struct FleetHooks {
  // ---- Inventory: sync (reconciler.yaml:11:5) ---------------------------------------------------

  // Step Inventory's work on the Fleet: read what it needs, compute, call outside the cluster, and
  // write the outcome to its status. Return a Result (requeue_after: run again later) and/or an
  // error.
  rr::Outcome inventory_sync(rr::Context& ctx, Fleet& resource) const;

  // Cleans up what sync allocated outside the cluster while the Fleet is being deleted. Return a
  // Result (requeue_after: run again later) and/or an error.
  rr::Outcome inventory_finalize(rr::Context& ctx, Fleet& resource) const;

  // ---- Shards: childSet ConfigMap, finalizer mode (fleet.example.rrgen.dev/shards)
  // (reconciler.yaml:15:5)

  // The ConfigMaps that should exist for the Fleet, each with its own ID (identify); the step's
  // other children are deleted. An rr::Error fails the step (rr::err_only_reconcile_child_status():
  // leave the children as they are, still reflect them).
  rr::DesiredChildren<ConfigMap> shards_desired(rr::Context& ctx, const Fleet& resource) const;

  // The stable ID of a ConfigMap: the same for the desired child and for it once created (a label,
  // or its name).
  std::string shards_identify(const ConfigMap& child) const;

  // Copies what this step owns from desired onto current before an update (labels, spec ...); what
  // it leaves alone (server defaults, other controllers' fields) is kept.
  void shards_merge(ConfigMap& current, const ConfigMap& desired) const;

  // Reflects every child's outcome (result.children: id, the ConfigMap as persisted or nothing, a
  // reflected error) onto the Fleet's status.
  void shards_reflect(rr::Context& ctx, Fleet& resource,
                      const rr::ChildSetResult<ConfigMap>& result) const;

  // Whether a listed ConfigMap belongs to this step and this Fleet (finalizer mode: children carry
  // no owner reference), e.g. by a label.
  bool shards_our_child(const Fleet& resource, const ConfigMap& child) const;

  // Where this step's ConfigMaps are listed (namespace, label selector) before our_child picks its
  // own.
  rr::ListOptions shards_list_options(rr::Context& ctx, const Fleet& resource) const;
};

}  // namespace fleet
