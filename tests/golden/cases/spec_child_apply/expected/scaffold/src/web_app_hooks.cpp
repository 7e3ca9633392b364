// The hooks of the WebApp reconciler (web_app_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "web_app_hooks.hpp"

#include <optional>
#include "k8s/apps/v1/deployment_apply.hpp"

namespace webapp {

rr::Desired<DeploymentApply> WebAppHooks::deployment_desired(rr::Context& /*ctx*/,
                                                             const WebApp& /*web_app*/) const {
  // TODO(you): state the fields of the Deployment this step owns as a
  // DeploymentApply (metadata.name, labels, spec ...); only what you set is applied,
  // and the step re-applies only when it differs from what it applied last.
  // As scaffolded, none (std::nullopt): no Deployment should exist, an existing
  // one is deleted.
  return std::nullopt;
}

void WebAppHooks::deployment_reflect(rr::Context& /*ctx*/, WebApp& /*web_app*/,
                                     const Deployment* /*child*/, const rr::Error& /*err*/) const {
  // TODO(you): report the Deployment on the WebApp's status (a condition,
  // a reference). child is the Deployment as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

rr::Desired<Service> WebAppHooks::service_desired(rr::Context& /*ctx*/,
                                                  const WebApp& /*web_app*/) const {
  // TODO(you): build the Service this WebApp needs (name, namespace,
  // labels, spec). As scaffolded, none (std::nullopt): no Service should
  // exist, an existing one is deleted.
  return std::nullopt;
}

void WebAppHooks::service_merge(Service& current, const Service& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels and spec.
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

void WebAppHooks::service_reflect(rr::Context& /*ctx*/, WebApp& /*web_app*/,
                                  const Service* /*child*/, const rr::Error& /*err*/) const {
  // TODO(you): report the Service on the WebApp's status (a condition,
  // a reference). child is the Service as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

}  // namespace webapp
