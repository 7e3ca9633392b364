// This family's part of the built-in validators' table: ConfigMap, Secret, Service, Endpoints, ServiceAccount,
// Namespace, PersistentVolumeClaim, the RBAC kinds, Lease, Ingress, NetworkPolicy, PodDisruptionBudget
// and HorizontalPodAutoscaler.
#pragma once
#include <span>

#include "rr/validation/builtin.hpp"

namespace rr::validation::detail {

std::span<const BuiltinValidator> core_validators();

}  // namespace rr::validation::detail
