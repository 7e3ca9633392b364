// The hooks of the WebApp reconciler (web_app_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "web_app_hooks.hpp"

#include <optional>

namespace webapp {

rr::Desired<Deployment> WebAppHooks::deployment_desired(rr::Context& /*ctx*/,
                                                        const WebApp& /*web_app*/) const {
  // TODO(you): build the Deployment this WebApp needs (name, namespace,
  // labels, spec). As scaffolded, none (std::nullopt): no Deployment should
  // exist, an existing one is deleted.
  return std::nullopt;
}

void WebAppHooks::deployment_merge(Deployment& current, const Deployment& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels and spec.
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

void WebAppHooks::deployment_reflect(rr::Context& /*ctx*/, WebApp& /*web_app*/,
                                     const Deployment* /*child*/, const rr::Error& /*err*/) const {
  // TODO(you): report the Deployment on the WebApp's status (a condition,
  // a reference). child is the Deployment as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

}  // namespace webapp
