// The ClusterRoles and ClusterRoleBindings an RBAC API server bootstraps, in a reduced form:
// cluster-admin (bound to system:masters), the aggregated admin, edit and view with their
// system:aggregate-to-* parts, system:discovery, system:basic-user and system:public-info-viewer.
#pragma once

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// Creates those that are missing; objects already there (edited or not) are left as they are.
// Does nothing when the cluster has no rbac.authorization.k8s.io kinds.
void ensure_default_rbac(Cluster& cluster);

}  // namespace rr::apiserver_detail
