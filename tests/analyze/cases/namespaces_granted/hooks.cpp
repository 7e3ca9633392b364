// Under `namespaces: [team-a, team-b]` a call of a namespaced kind goes to the manager's Role in
// each listed namespace (none in the deploy namespace): the report shows the tracked ConfigMap
// read under both Roles' derived rule, and the Secret read under the marker of each namespace.
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

// +kubebuilder:rbac:groups="",resources=secrets,verbs=get,namespace=team-a
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get,namespace=team-b
void settings(rr::Context& ctx, const k8s::apps::v1::Deployment& d) {
  (void)rr::track_and_get<k8s::core::v1::ConfigMap>(ctx, {d.metadata.namespace_, "settings"});
  (void)ctx.config().reader().get<k8s::core::v1::Secret>(d.metadata.namespace_, "password");
}

}  // namespace cases
