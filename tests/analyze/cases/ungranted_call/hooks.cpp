// A hook reading a Secret the spec grants nothing on: an error at the call, with --spec. A Job
// only a marker grants: a warning (role.yaml, written from the spec, lacks it).
#include "k8s/batch/v1/job.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create
void sync(rr::Context& ctx, const k8s::batch::v1::Job& job) {
  (void)rr::track_and_get<k8s::core::v1::ConfigMap>(ctx, {"ns", "config"});
  (void)ctx.config().api().get<k8s::core::v1::Secret>("ns", "password");
  (void)ctx.config().api().create(job);
}

}  // namespace cases
