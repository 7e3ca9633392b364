// A hook reading a Secret the spec grants nothing on: an error at the call, with --spec.
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

void sync(rr::Context& ctx) {
  (void)rr::track_and_get<k8s::core::v1::ConfigMap>(ctx, {"ns", "config"});
  (void)ctx.config().api().get<k8s::core::v1::Secret>("ns", "password");
}

}  // namespace cases
