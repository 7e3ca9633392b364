// The OwnerReferencesPermissionEnforcement admission plugin, which the local cluster runs when it
// enforces RBAC (as hardened clusters and OpenShift do): changing an object's ownerReferences
// needs `delete` on the object (except on create), and setting blockOwnerDeletion on a reference
// needs `update` on the owner's `finalizers` subresource. This is why an operator's role grants
// `<owner plural>/finalizers` update.
#pragma once
#include <string>

#include "authorization.hpp"
#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// Throws ApiError 403 with the plugin's message when `user` may not write `object` (of `kind`,
// in `namespace_`) over `old` (nullptr on create). Kinds of references are resolved in `cluster`.
void confirm_owner_references(const Authorizer& authorizer, const Cluster& cluster, const UserInfo& user,
                              const KindInfo& kind, const std::string& namespace_, const Json& object, const Json* old);

}  // namespace rr::apiserver_detail
