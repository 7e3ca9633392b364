// With `events: core/v1` the recorder writes core/v1 Events: its calls need create and patch on
// core `events`, which the spec derives, and not events.k8s.io's (the report shows the rule the
// calls are granted by).
#include "k8s/apps/v1/deployment.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

void announce(rr::Context& ctx, const k8s::apps::v1::Deployment& d) {
  ctx.config().recorder->event(d, rr::event_normal, "Announced", "reconciled");
}

}  // namespace cases
