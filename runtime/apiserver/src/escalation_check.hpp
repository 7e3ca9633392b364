// RBAC's escalation prevention, as the API server's rbac registry applies it to writes of Roles,
// ClusterRoles and their bindings: a user may only grant permissions they hold, unless they may
// `escalate` the role (roles, clusterroles) or `bind` the role a binding refers to; members of
// system:masters may do anything. Setting a ClusterRole's aggregationRule needs full authority.
// A binding's roleRef cannot change on update.
#pragma once
#include <string>
#include <vector>

#include "authorization.hpp"
#include "rbac_authorizer.hpp"
#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

// The atomic rules of a rule (BreakdownRule): one group, resource and verb each (and one name,
// when it has resourceNames); one non-resource URL and verb each.
std::vector<PolicyRule> breakdown_rule(const PolicyRule& rule);

// Whether `owner` covers every request `sub` allows (ruleCovers): "*" covers anything, "*/x"
// covers subresource x of any resource, "/path/*" covers every URL below /path/.
bool rule_covers(const PolicyRule& owner, const PolicyRule& sub);

// The atomic rules of `servant` that no rule of `owner` covers (Covers); empty when all are.
std::vector<PolicyRule> uncovered_rules(const std::vector<PolicyRule>& owner, const std::vector<PolicyRule>& servant);

// rbacv1helpers.CompactString: {APIGroups:["apps"], Resources:["deployments"], Verbs:["get" "list"]}
std::string compact_string(const PolicyRule& rule);

// ConfirmNoEscalation's error text: `user "u" (groups=["g"]) is attempting to grant RBAC
// permissions not currently held:\n{...}\n{...}` (the missing rules compacted and sorted as
// upstream does), then "; resolution errors: [...]" when bindings of `user` did not resolve.
std::string escalation_message(const UserInfo& user, const std::vector<PolicyRule>& missing,
                               const std::vector<std::string>& resolution_errors);

// Throws ApiError 403 (or 422 for a changed roleRef) when `user` may not write `object` of kind
// `gvk` in `namespace_`; `old` is the stored object on update (nullptr on create). Does nothing
// for kinds outside rbac.authorization.k8s.io or when the authorizer does not enforce RBAC.
void confirm_rbac_write(const Authorizer& authorizer, const UserInfo& user, const GroupVersionKind& gvk,
                        const std::string& namespace_, const Json& object, const Json* old);

}  // namespace rr::apiserver_detail
