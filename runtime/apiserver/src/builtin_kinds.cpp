#include "rr/apiserver/builtin_kinds.hpp"

#include "crd_kinds.hpp"
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/coordination/v1/lease.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/event.hpp"
#include "k8s/core/v1/namespace.hpp"
#include "k8s/core/v1/secret.hpp"
#include "k8s/core/v1/service.hpp"
#include "k8s/core/v1/service_account.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr {

namespace {

template <Object T>
void register_typed(Cluster& cluster) {
  if (!cluster.find_kind(kind_info_of<T>().gvk)) cluster.register_kind<T>();
}

void register_unstructured(Cluster& cluster, KindInfo info, Cluster::AdmitFn admit = {}) {
  if (!cluster.find_kind(info.gvk)) cluster.register_kind(std::move(info), std::move(admit));
}

KindInfo unstructured(std::string group, std::string kind, std::string plural, Scope scope, bool has_status) {
  return KindInfo{.gvk = {std::move(group), "v1", kind},
                  .plural = std::move(plural),
                  .list_kind = kind + "List",
                  .scope = scope,
                  .has_status = has_status};
}

void ensure_namespace(Cluster& cluster, const std::string& name) {
  const KindInfo kind = kind_info_of<k8s::core::v1::Namespace>();
  try {
    Json created = cluster.create(kind, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", name}}}});
    created["status"] = {{"phase", "Active"}};
    cluster.update_status(kind, created);
  } catch (const ApiError& e) {
    if (!is_already_exists(e.status())) throw;
  }
}

}  // namespace

void register_builtin_kinds(Cluster& cluster) {
  register_typed<k8s::core::v1::ConfigMap>(cluster);
  register_typed<k8s::core::v1::Namespace>(cluster);
  register_typed<k8s::core::v1::Secret>(cluster);
  register_typed<k8s::core::v1::Service>(cluster);
  register_typed<k8s::core::v1::ServiceAccount>(cluster);
  register_typed<k8s::core::v1::Event>(cluster);
  register_typed<k8s::apps::v1::Deployment>(cluster);
  register_typed<k8s::coordination::v1::Lease>(cluster);

  register_unstructured(cluster, unstructured("", "Pod", "pods", Scope::Namespaced, true));
  const std::string rbac = "rbac.authorization.k8s.io";
  register_unstructured(cluster, unstructured(rbac, "Role", "roles", Scope::Namespaced, false));
  register_unstructured(cluster, unstructured(rbac, "RoleBinding", "rolebindings", Scope::Namespaced, false));
  register_unstructured(cluster, unstructured(rbac, "ClusterRole", "clusterroles", Scope::Cluster, false));
  register_unstructured(cluster, unstructured(rbac, "ClusterRoleBinding", "clusterrolebindings", Scope::Cluster, false));
  register_unstructured(cluster, unstructured("events.k8s.io", "Event", "events", Scope::Namespaced, false));
  register_unstructured(cluster,
                        unstructured("apiextensions.k8s.io", "CustomResourceDefinition", "customresourcedefinitions",
                                     Scope::Cluster, true),
                        [](Json& crd) { return apiserver_detail::admit_crd(crd); });

  for (const char* name : {"default", "kube-system", "kube-public"}) ensure_namespace(cluster, name);
}

}  // namespace rr
