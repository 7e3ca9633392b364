// The hooks of the Gateway reconciler (gateway_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "gateway_hooks.hpp"

#include <optional>
#include <vector>

namespace gateway {

rr::Error GatewayHooks::credentials_sync(rr::Context& /*ctx*/, Gateway& /*resource*/) const {
  // TODO(you): bring the Gateway up to date for step Credentials: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  // It tracks Secret: read it with rr::track_and_try_get<Secret>(ctx, {namespace, name}) (or
  // track_and_get, track_and_list), so that a change re-runs this step.
  return {};
}

rr::Desired<Deployment> GatewayHooks::proxy_desired(rr::Context& /*ctx*/,
                                                    const Gateway& /*resource*/) const {
  // TODO(you): build the Deployment this Gateway needs (name, namespace,
  // labels, spec). As scaffolded, none (std::nullopt): no Deployment should
  // exist, an existing one is deleted.
  return std::nullopt;
}

void GatewayHooks::proxy_merge(Deployment& current, const Deployment& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels and spec.
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

void GatewayHooks::proxy_reflect(rr::Context& /*ctx*/, Gateway& /*resource*/,
                                 const Deployment* /*child*/, const rr::Error& /*err*/) const {
  // TODO(you): report the Deployment on the Gateway's status (a condition,
  // a reference). child is the Deployment as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const Secret* /*old_object*/,
                                  const Secret& /*object*/) const {
  // TODO(you): whether this event of a Secret reaches the reconciler (the predicates of step
  // Credentials (reconciler.yaml:20:9)); old_object is set on updates only. As scaffolded: every
  // event passes, as if the spec named no predicate.
  return true;
}

std::vector<rr::ObjectKey> GatewayHooks::settings_to_gateways_map(const ConfigMap& /*object*/) const {
  // TODO(you): the keys (namespace, name) of the Gateways this ConfigMap concerns: an owner
  // reference, a label or an annotation naming them. On an update the keys of the old and of the
  // new ConfigMap are both reconciled. As scaffolded: none, so its events reconcile nothing.
  return {};
}

bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const ConfigMap* /*old_object*/,
                                  const ConfigMap& /*object*/) const {
  // TODO(you): whether this event of a ConfigMap reaches the reconciler (the watch of ConfigMap
  // (reconciler.yaml:33:9)); old_object is set on updates only. As scaffolded: every event passes,
  // as if the spec named no predicate.
  return true;
}

std::vector<rr::ObjectKey> GatewayHooks::pods_to_gateways_map(
    const rr::ObjectMeta& /*metadata*/) const {
  // TODO(you): the keys (namespace, name) of the Gateways this object (given its metadata)
  // concerns: an owner reference, a label or an annotation naming them. On an update the keys of
  // the old and of the new object (given its metadata) are both reconciled. As scaffolded: none, so
  // its events reconcile nothing.
  return {};
}

bool GatewayHooks::ours_predicate(rr::EventType /*type*/, const rr::ObjectMeta* /*old_metadata*/,
                                  const rr::ObjectMeta& /*metadata*/) const {
  // TODO(you): whether this event of an object, given its metadata, reaches the reconciler (the
  // metadata-only watch of Pod (reconciler.yaml:39:9)); old_metadata is set on updates only. As
  // scaffolded: every event passes, as if the spec named no predicate.
  return true;
}

}  // namespace gateway
