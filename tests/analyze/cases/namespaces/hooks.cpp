// Under `namespaces: [team-a, team-b]` the manager's Roles are in team-a and team-b, not in the
// deploy namespace: a tracked ConfigMap read is granted in both by the derived rules; a Secret
// read through the API reader that a marker grants in team-a only is ungranted in team-b; a Job
// created under a ClusterRole marker is granted in both (only a marker grants it: a warning).
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/batch/v1/job.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get,namespace=team-a
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create
void settings(rr::Context& ctx, const k8s::apps::v1::Deployment& d, const k8s::batch::v1::Job& job) {
  (void)rr::track_and_get<k8s::core::v1::ConfigMap>(ctx, {d.metadata.namespace_, "settings"});
  (void)ctx.config().reader().get<k8s::core::v1::Secret>(d.metadata.namespace_, "password");
  (void)ctx.config().api().create(job);
}

}  // namespace cases
