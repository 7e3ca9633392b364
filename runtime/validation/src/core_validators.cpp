#include "core_validators.hpp"

#include <array>

#include "core_kinds.hpp"

namespace rr::validation::detail {

std::span<const BuiltinValidator> core_validators() {
  static constexpr std::array<BuiltinValidator, 16> kTable{{
      {"", "v1", "ConfigMap", validate_config_map, validate_config_map_update},
      {"", "v1", "Secret", validate_secret, validate_secret_update},
      {"", "v1", "Service", validate_service, validate_service_update},
      {"", "v1", "Endpoints", validate_endpoints, validate_endpoints_update},
      {"", "v1", "ServiceAccount", validate_service_account, validate_service_account_update},
      {"", "v1", "Namespace", validate_namespace, validate_namespace_update},
      {"", "v1", "PersistentVolumeClaim", validate_pvc, validate_pvc_update},
      {"autoscaling", "v2", "HorizontalPodAutoscaler", validate_hpa, validate_hpa_update},
      {"coordination.k8s.io", "v1", "Lease", validate_lease, validate_lease_update},
      {"networking.k8s.io", "v1", "Ingress", validate_ingress, validate_ingress_update},
      {"networking.k8s.io", "v1", "NetworkPolicy", validate_network_policy, validate_network_policy_update},
      {"policy", "v1", "PodDisruptionBudget", validate_pdb, validate_pdb_update},
      {"rbac.authorization.k8s.io", "v1", "Role", validate_role, validate_role_update},
      {"rbac.authorization.k8s.io", "v1", "ClusterRole", validate_cluster_role, validate_cluster_role_update},
      {"rbac.authorization.k8s.io", "v1", "RoleBinding", validate_role_binding, validate_role_binding_update},
      {"rbac.authorization.k8s.io", "v1", "ClusterRoleBinding", validate_cluster_role_binding,
       validate_cluster_role_binding_update},
  }};
  return kTable;
}

}  // namespace rr::validation::detail
