// rr::ResourceTraits of the built-in kinds: what rrgen read from the `paths` of
// schemas/kubernetes-1.35/ must be what a real API server serves.
#include <doctest/doctest.h>

#include "k8s/apiextensions/v1/custom_resource_definition.hpp"
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/stateful_set.hpp"
#include "k8s/autoscaling/v2/horizontal_pod_autoscaler.hpp"
#include "k8s/batch/v1/job.hpp"
#include "k8s/coordination/v1/lease.hpp"
#include "k8s/core/v1/config_map.hpp"
#include "k8s/core/v1/event.hpp"
#include "k8s/core/v1/namespace.hpp"
#include "k8s/core/v1/persistent_volume_claim.hpp"
#include "k8s/core/v1/pod.hpp"
#include "k8s/core/v1/replication_controller.hpp"
#include "k8s/core/v1/secret.hpp"
#include "k8s/core/v1/service.hpp"
#include "k8s/core/v1/service_account.hpp"
#include "k8s/networking/v1/ingress.hpp"
#include "k8s/policy/v1/pod_disruption_budget.hpp"
#include "k8s/rbac/v1/cluster_role_binding.hpp"
#include "k8s/rbac/v1/role.hpp"
#include "rr/core/json.hpp"
#include "rr/core/resource_traits.hpp"

namespace {

template <class T>
struct Expected {
  std::string_view group, version, kind, api_version, plural, singular, list_kind;
  rr::Scope scope;
  bool has_status, has_scale;
};

template <class T>
void check(const Expected<T>& e) {
  using Traits = rr::ResourceTraits<T>;
  CAPTURE(e.kind);
  static_assert(rr::Resource<T>);
  CHECK(Traits::group == e.group);
  CHECK(Traits::version == e.version);
  CHECK(Traits::kind == e.kind);
  CHECK(Traits::api_version == e.api_version);
  CHECK(Traits::plural == e.plural);
  CHECK(Traits::singular == e.singular);
  CHECK(Traits::list_kind == e.list_kind);
  CHECK(Traits::scope == e.scope);
  CHECK(Traits::has_status == e.has_status);
  CHECK(Traits::has_scale == e.has_scale);
  CHECK(Traits::served);
  CHECK(Traits::storage);
  // A default-constructed object already carries its apiVersion and kind.
  const T fresh;
  CHECK(fresh.api_version == e.api_version);
  CHECK(fresh.kind == e.kind);
}

using rr::Scope;

}  // namespace

TEST_CASE("ResourceTraits: core/v1 kinds") {
  check<k8s::core::v1::ConfigMap>({"", "v1", "ConfigMap", "v1", "configmaps", "configmap", "ConfigMapList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Secret>({"", "v1", "Secret", "v1", "secrets", "secret", "SecretList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Service>({"", "v1", "Service", "v1", "services", "service", "ServiceList", Scope::Namespaced, true, false});
  check<k8s::core::v1::ServiceAccount>(
      {"", "v1", "ServiceAccount", "v1", "serviceaccounts", "serviceaccount", "ServiceAccountList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Event>({"", "v1", "Event", "v1", "events", "event", "EventList", Scope::Namespaced, false, false});
  check<k8s::core::v1::Namespace>({"", "v1", "Namespace", "v1", "namespaces", "namespace", "NamespaceList", Scope::Cluster, true, false});
}

TEST_CASE("ResourceTraits: apps/v1 Deployment has status and scale subresources") {
  check<k8s::apps::v1::Deployment>(
      {"apps", "v1", "Deployment", "apps/v1", "deployments", "deployment", "DeploymentList", Scope::Namespaced, true, true});
}

TEST_CASE("ResourceTraits: coordination.k8s.io/v1 Lease has no status") {
  check<k8s::coordination::v1::Lease>({"coordination.k8s.io", "v1", "Lease", "coordination.k8s.io/v1", "leases", "lease", "LeaseList",
                                       Scope::Namespaced, false, false});
}

TEST_CASE("ResourceTraits: the kinds an operator owns beyond the first eight") {
  check<k8s::core::v1::Pod>({"", "v1", "Pod", "v1", "pods", "pod", "PodList", Scope::Namespaced, true, false});
  check<k8s::core::v1::PersistentVolumeClaim>({"", "v1", "PersistentVolumeClaim", "v1", "persistentvolumeclaims",
                                               "persistentvolumeclaim", "PersistentVolumeClaimList", Scope::Namespaced,
                                               true, false});
  check<k8s::core::v1::ReplicationController>({"", "v1", "ReplicationController", "v1", "replicationcontrollers",
                                               "replicationcontroller", "ReplicationControllerList", Scope::Namespaced,
                                               true, true});
  check<k8s::apps::v1::StatefulSet>({"apps", "v1", "StatefulSet", "apps/v1", "statefulsets", "statefulset",
                                     "StatefulSetList", Scope::Namespaced, true, true});
  check<k8s::batch::v1::Job>(
      {"batch", "v1", "Job", "batch/v1", "jobs", "job", "JobList", Scope::Namespaced, true, false});
  check<k8s::autoscaling::v2::HorizontalPodAutoscaler>(
      {"autoscaling", "v2", "HorizontalPodAutoscaler", "autoscaling/v2", "horizontalpodautoscalers",
       "horizontalpodautoscaler", "HorizontalPodAutoscalerList", Scope::Namespaced, true, false});
  check<k8s::networking::v1::Ingress>({"networking.k8s.io", "v1", "Ingress", "networking.k8s.io/v1", "ingresses",
                                       "ingress", "IngressList", Scope::Namespaced, true, false});
  check<k8s::policy::v1::PodDisruptionBudget>({"policy", "v1", "PodDisruptionBudget", "policy/v1",
                                               "poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudgetList",
                                               Scope::Namespaced, true, false});
  check<k8s::rbac::v1::Role>({"rbac.authorization.k8s.io", "v1", "Role", "rbac.authorization.k8s.io/v1", "roles",
                              "role", "RoleList", Scope::Namespaced, false, false});
  check<k8s::rbac::v1::ClusterRoleBinding>({"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding",
                                            "rbac.authorization.k8s.io/v1", "clusterrolebindings", "clusterrolebinding",
                                            "ClusterRoleBindingList", Scope::Cluster, false, false});
  check<k8s::apiextensions::v1::CustomResourceDefinition>(
      {"apiextensions.k8s.io", "v1", "CustomResourceDefinition", "apiextensions.k8s.io/v1", "customresourcedefinitions",
       "customresourcedefinition", "CustomResourceDefinitionList", Scope::Cluster, true, false});
}

TEST_CASE("a PersistentVolumeClaim template in a StatefulSet round-trips without gaining apiVersion and kind") {
  const std::string text =
      R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"name":"db"},"spec":{"selector":{"matchLabels":{"a":"b"}},)"
      R"("serviceName":"db","template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"db","image":"kv:1"}]}},)"
      R"("volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],)"
      R"("resources":{"requests":{"storage":"1Gi"}}}}]}})";
  const auto sts = k8s::apps::v1::StatefulSet::from_json_text(text);
  REQUIRE(sts.spec->volume_claim_templates);
  CHECK(sts.spec->volume_claim_templates->at(0).api_version.empty());
  CHECK(rr::Json::parse(sts.to_json_text()) == rr::Json::parse(text));
  // A document without them gets the kind's own from from_json_text(), as a whole object.
  const auto bare = k8s::apps::v1::StatefulSet::from_json_text(R"({"metadata":{"name":"db"}})");
  CHECK(bare.api_version == "apps/v1");
  CHECK(bare.kind == "StatefulSet");
}
