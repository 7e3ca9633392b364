// Markers as controller-gen reads them: a list with ';', a braced list, quotes, the core group
// spelled "core", a namespace (a Role), resourceNames, a non-resource URL, a marker covering a
// call whose kind is chosen at run time, and markers in an included header of the hooks.
#include "k8s/core/v1/secret.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/context.hpp"
#include "rules.hpp"

namespace cases {

// +kubebuilder:rbac:groups=core,resources=secrets,verbs=get;list
// +kubebuilder:rbac:groups=apps,resources=deployments;statefulsets,verbs={get,update}
// +kubebuilder:rbac:groups="",resources=configmaps,verbs=get,namespace=team-a,resourceNames=settings
// +kubebuilder:rbac:urls=/metrics,verbs=get
void read(rr::Client& client, const rr::KindInfo& workload) {
  (void)client.list<k8s::core::v1::Secret>();
  (void)client.get(workload, {"ns", "w"});
  (void)client.update(workload, {});
}

}  // namespace cases
