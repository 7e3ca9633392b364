// The hooks of the Gateway reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (gateway_reconciler.cpp) calls these through one shared
// `const GatewayHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   GatewayReconciler(config, std::make_shared<const GatewayHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once
#include <vector>

#include "gateway_reconciler.hpp"
#include "rr/client/object_key.hpp"
#include "rr/controller/predicates.hpp"
#include "rr/core/meta.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace gateway {

struct GatewayHooks {
  // ---- Credentials: sync, tracks Secret (reconciler.yaml:17:5) ----------------------------------

  // Step Credentials's work on the Gateway: read what it needs, compute, call outside the cluster,
  // and write the outcome to its status. An error stops the steps after it and is retried with
  // backoff. Read Secrets through rr::track_and_get (or track_and_try_get, track_and_list): a
  // change re-runs the step.
  rr::Error credentials_sync(rr::Context& ctx, Gateway& resource) const;

  // ---- Proxy: child Deployment (reconciler.yaml:21:5) -------------------------------------------

  // The Deployment that should exist for the Gateway: a child, std::nullopt (none: an existing one
  // is deleted) or an rr::Error (rr::err_only_reconcile_child_status(): leave the child as it is,
  // still reflect it).
  rr::Desired<Deployment> proxy_desired(rr::Context& ctx, const Gateway& resource) const;

  // Copies what this step owns from desired onto current before an update (labels, spec ...); what
  // it leaves alone (server defaults, other controllers' fields) is kept.
  void proxy_merge(Deployment& current, const Deployment& desired) const;

  // Reflects the Deployment as persisted (nullptr: none) or the error that kept it from being
  // written (AlreadyExists, Forbidden, Invalid) onto the Gateway's status.
  void proxy_reflect(rr::Context& ctx, Gateway& resource, const Deployment* child,
                     const rr::Error& err) const;

  // ---- watches and predicates (reconciler.yaml) -------------------------------------------------

  // Whether an event of a Secret (the predicates of step Credentials) reaches the reconciler:
  // old_object is set on updates only. Asked for at reconciler.yaml:20:9.
  bool ours_predicate(rr::EventType type, const Secret* old_object, const Secret& object) const;

  // The Gateways to reconcile when a ConfigMap changes (its keys: namespace and name). Asked for at
  // reconciler.yaml:27:5.
  std::vector<rr::ObjectKey> settings_to_gateways_map(const ConfigMap& object) const;

  // Whether an event of a ConfigMap (the watch of ConfigMap) reaches the reconciler: old_object is
  // set on updates only. Asked for at reconciler.yaml:33:9.
  bool ours_predicate(rr::EventType type, const ConfigMap* old_object,
                      const ConfigMap& object) const;

  // The Gateways to reconcile when a Pod's metadata changes (its keys: namespace and name). Asked
  // for at reconciler.yaml:34:5.
  std::vector<rr::ObjectKey> pods_to_gateways_map(const rr::ObjectMeta& metadata) const;

  // Whether an event (the metadata-only watch of Pod) reaches the reconciler, given the object's
  // metadata: old_metadata is set on updates only. Asked for at reconciler.yaml:39:9.
  bool ours_predicate(rr::EventType type, const rr::ObjectMeta* old_metadata,
                      const rr::ObjectMeta& metadata) const;
};

}  // namespace gateway
