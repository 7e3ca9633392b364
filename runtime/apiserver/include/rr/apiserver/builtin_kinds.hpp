// The kinds a local cluster serves before any CRD is applied.
#pragma once

namespace rr {

class Cluster;

// Registers the typed rr::builtin kinds with their admission (core/v1 ConfigMap, Namespace,
// Secret, Service, ServiceAccount, Event; apps/v1 Deployment; coordination.k8s.io/v1 Lease), and
// unstructured kinds without admission: v1 Pod; rbac.authorization.k8s.io/v1 Role, RoleBinding,
// ClusterRole, ClusterRoleBinding; events.k8s.io/v1 Event; apiextensions.k8s.io/v1
// CustomResourceDefinition (with a structural check of the CRD). A kind already registered keeps
// its registration (and admission). Creates the namespaces default, kube-system and kube-public
// (phase Active) when they are missing.
void register_builtin_kinds(Cluster& cluster);

}  // namespace rr
