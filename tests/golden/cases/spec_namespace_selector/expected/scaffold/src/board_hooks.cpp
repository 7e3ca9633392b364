// The hooks of the Board reconciler (board_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "board_hooks.hpp"

#include <optional>

namespace board {

rr::Error BoardHooks::summary_sync(rr::Context& /*ctx*/, Board& /*resource*/) const {
  // TODO(you): bring the Board up to date for step Summary: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  // It tracks Secret: read it with rr::track_and_try_get<Secret>(ctx, {namespace, name}) (or
  // track_and_get, track_and_list), so that a change re-runs this step.
  return {};
}

rr::Desired<ConfigMap> BoardHooks::page_desired(rr::Context& /*ctx*/,
                                                const Board& /*resource*/) const {
  // TODO(you): build the ConfigMap this Board needs (name, namespace,
  // labels, spec). As scaffolded, none (std::nullopt): no ConfigMap should
  // exist, an existing one is deleted.
  return std::nullopt;
}

void BoardHooks::page_merge(ConfigMap& current, const ConfigMap& desired) const {
  // TODO(you): copy onto current what this step owns in desired, and keep
  // what the server or other controllers set (a Service's clusterIP, say).
  // As scaffolded: the labels, binary_data, data and immutable.
  current.metadata.labels = desired.metadata.labels;
  current.binary_data = desired.binary_data;
  current.data = desired.data;
  current.immutable = desired.immutable;
}

void BoardHooks::page_reflect(rr::Context& /*ctx*/, Board& /*resource*/, const ConfigMap* /*child*/,
                              const rr::Error& /*err*/) const {
  // TODO(you): report the ConfigMap on the Board's status (a condition,
  // a reference). child is the ConfigMap as persisted (nullptr: there is
  // none), err what kept it from being written (AlreadyExists: another object
  // holds its name; Forbidden; Invalid). As scaffolded: nothing.
}

}  // namespace board
