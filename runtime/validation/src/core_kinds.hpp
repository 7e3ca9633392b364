// The validators of the core, RBAC, coordination, networking, policy and autoscaling kinds this
// family covers (each defined in its kind's file), joined into a table by core_validators.cpp.
// Each returns only the kind's own findings; ObjectMeta is validated by the caller.
#pragma once
#include <string>

#include "common.hpp"
#include "go_text.hpp"
#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation::detail {

ErrorList validate_config_map(const Json& object);
ErrorList validate_config_map_update(const Json& object, const Json& old);
ErrorList validate_secret(const Json& object);
ErrorList validate_secret_update(const Json& object, const Json& old);

ErrorList validate_service(const Json& object);
ErrorList validate_service_update(const Json& object, const Json& old);

ErrorList validate_endpoints(const Json& object);
ErrorList validate_endpoints_update(const Json& object, const Json& old);
ErrorList validate_service_account(const Json& object);
ErrorList validate_service_account_update(const Json& object, const Json& old);
ErrorList validate_namespace(const Json& object);
ErrorList validate_namespace_update(const Json& object, const Json& old);
ErrorList validate_pvc(const Json& object);
ErrorList validate_pvc_update(const Json& object, const Json& old);

ErrorList validate_role(const Json& object);
ErrorList validate_role_update(const Json& object, const Json& old);
ErrorList validate_cluster_role(const Json& object);
ErrorList validate_cluster_role_update(const Json& object, const Json& old);
ErrorList validate_role_binding(const Json& object);
ErrorList validate_role_binding_update(const Json& object, const Json& old);
ErrorList validate_cluster_role_binding(const Json& object);
ErrorList validate_cluster_role_binding_update(const Json& object, const Json& old);

ErrorList validate_lease(const Json& object);
ErrorList validate_lease_update(const Json& object, const Json& old);

ErrorList validate_ingress(const Json& object);
ErrorList validate_ingress_update(const Json& object, const Json& old);
ErrorList validate_network_policy(const Json& object);
ErrorList validate_network_policy_update(const Json& object, const Json& old);
ErrorList validate_pdb(const Json& object);
ErrorList validate_pdb_update(const Json& object, const Json& old);
ErrorList validate_hpa(const Json& object);
ErrorList validate_hpa_update(const Json& object, const Json& old);

// A ClusterRole's aggregationRule.clusterRoleSelectors, each a label selector.
ErrorList cluster_role_selectors(const Json& aggregation_rule, const std::string& path);

}  // namespace rr::validation::detail
