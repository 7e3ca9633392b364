// The hooks of the Watcher reconciler (watcher_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "watcher_hooks.hpp"

namespace watcher {

rr::Error WatcherHooks::mark_watched_sync(rr::Context& /*ctx*/,
                                          ConditionsDuck& /*conditions_duck*/) const {
  // TODO(you): bring the ConditionsDuck up to date for step MarkWatched: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  // It tracks ConfigMap: read it with rr::track_and_try_get<ConfigMap>(ctx, {namespace, name}) (or
  // track_and_get, track_and_list), so that a change re-runs this step.
  return {};
}

rr::Error WatcherHooks::release_sync(rr::Context& /*ctx*/,
                                     ConditionsDuck& /*conditions_duck*/) const {
  // TODO(you): bring the ConditionsDuck up to date for step Release: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  return {};
}

rr::Error WatcherHooks::release_finalize(rr::Context& /*ctx*/,
                                         ConditionsDuck& /*conditions_duck*/) const {
  // TODO(you): the ConditionsDuck is being deleted: undo what release_sync
  // did outside the cluster.
  // The finalizer watcher.rrgen.dev/release keeps the ConditionsDuck until this returns no error;
  // then it is removed and the ConditionsDuck goes.
  return {};
}

}  // namespace watcher
