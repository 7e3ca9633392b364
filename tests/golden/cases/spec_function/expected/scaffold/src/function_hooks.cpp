// The hooks of the Function reconciler (function_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "function_hooks.hpp"

#include <optional>

namespace fnsample {

rr::Error FunctionHooks::target_image_sync(rr::Context& /*ctx*/, Function& /*function*/) const {
  // TODO(you): bring the Function up to date for step TargetImage: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  // It tracks ConfigMap: read it with rr::track_and_try_get<ConfigMap>(ctx, {namespace, name}) (or
  // track_and_get, track_and_list), so that a change re-runs this step.
  return {};
}

rr::Desired<Image> FunctionHooks::child_image_desired(rr::Context& /*ctx*/,
                                                      const Function& /*function*/) const {
  // TODO(you): build the Image this Function needs (name, namespace,
  // labels, spec). As scaffolded, none (std::nullopt): no Image should
  // exist, an existing one is deleted.
  return std::nullopt;
}

void FunctionHooks::child_image_merge(Image& current, const Image& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels and spec.
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;
}

void FunctionHooks::child_image_reflect(rr::Context& /*ctx*/, Function& /*function*/,
                                        const Image* /*child*/, const rr::Error& /*err*/) const {
  // TODO(you): report the Image on the Function's status (a condition,
  // a reference). child is the Image as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

}  // namespace fnsample
