// The hooks of the Gateway reconciler (gateway_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "gateway_hooks.hpp"

#include <optional>

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

}  // namespace gateway
