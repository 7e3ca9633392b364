// The hooks of the WebApp reconciler (web_app_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "web_app_hooks.hpp"

namespace webapp {

rr::Error WebAppHooks::config_sync(rr::Context& /*ctx*/, WebApp& /*web_app*/) const {
  // TODO(you): bring the WebApp up to date for step Config: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  // It tracks ConfigMap: read it with rr::track_and_try_get<ConfigMap>(ctx, {namespace, name}) (or
  // track_and_get, track_and_list), so that a change re-runs this step.
  return {};
}

}  // namespace webapp
