// Authorization of the local cluster's requests: the configured mode (AlwaysAllow or RBAC over the
// cluster's Roles, ClusterRoles and bindings, with system:masters always allowed), the attributes
// of an HTTP request, the 403 Status of a denial, and impersonation (Impersonate-User/-Group).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "query.hpp"
#include "rbac_authorizer.hpp"
#include "rbac_cache.hpp"
#include "route.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/client/api_error.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// What a SelfSubjectRulesReview reports.
struct RulesReview {
  std::vector<PolicyRule> resource_rules, non_resource_rules;
  std::string evaluation_error;
};

class Authorizer {
 public:
  Authorizer(std::shared_ptr<Cluster> cluster, AuthorizationMode mode);

  AuthorizationMode mode() const { return mode_; }
  bool enforcing() const { return mode_ == AuthorizationMode::RBAC; }
  // The decision the configured mode makes (the reviews ask it too).
  Decision authorize(const RequestAttributes& request) const;
  // The rules the configured mode grants `user` in `namespace_` (AlwaysAllow: everything).
  RulesReview rules_for(const UserInfo& user, const std::string& namespace_) const;
  // What RBAC grants `user` in `namespace_` ("" = the ClusterRoleBindings only), whatever the mode.
  GrantedRules granted_rules(const UserInfo& user, const std::string& namespace_) const;
  // The rules a roleRef points at, a Role being looked up in `namespace_`.
  RoleRules role_reference_rules(const Json& role_ref, const std::string& namespace_) const;

 private:
  // The RBAC objects a decision in `namespace_` reads (RoleBindings of that namespace only).
  std::shared_ptr<const RbacView> objects(const std::string& namespace_) const;

  AuthorizationMode mode_;
  RbacCache cache_;
};

// The attributes of a request (the API server's RequestInfo): a resource request's verb from the
// method (GET: get, list or watch; DELETE of a collection: deletecollection), the namespace of a
// namespace's own requests being its name; any other path is a non-resource request whose verb is
// the lowercase method.
RequestAttributes request_attributes(const std::string& method, const std::string& path, const Route& route,
                                     const QueryParams& query);

// The API server's 403: `secrets "x" is forbidden: User "u" cannot get resource "secrets" in API
// group "" in the namespace "ns"` (": <reason>" appended when the authorizer gave one).
Status forbidden_status(const RequestAttributes& request, const std::string& reason);

// The user a request acts as: `real`, or the one the impersonation headers name when `real` may
// impersonate each part (verb impersonate on users, groups or serviceaccounts, and on
// authentication.k8s.io uids and userextras/<key>); ApiError 403 when not, 400 when groups, a uid
// or extras come without a user. An impersonated user other than system:anonymous is in
// system:authenticated; a service account with no groups named is in its two service-account groups.
UserInfo acting_user(const Authorizer& authorizer, const UserInfo& real, const Impersonation& as);

}  // namespace rr::apiserver_detail
