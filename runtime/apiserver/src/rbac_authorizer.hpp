// The RBAC authorizer of the Kubernetes API server as pure logic over rbac.authorization.k8s.io/v1
// objects: which rules bind a user in a namespace, and whether one of them allows a request.
// Aggregated ClusterRoles are resolved here, when their rules are used (no controller rewrites
// the stored object): the union of the rules of the ClusterRoles their selectors match.
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

inline constexpr std::string_view masters_group = "system:masters";
inline constexpr std::string_view authenticated_group = "system:authenticated";
inline constexpr std::string_view unauthenticated_group = "system:unauthenticated";
inline constexpr std::string_view anonymous_user = "system:anonymous";

// Members initialised with {} so designated initialisers may leave some out.
struct UserInfo {
  std::string name{};
  std::vector<std::string> groups{};
  // Neither takes part in RBAC decisions; the reviews report them.
  std::string uid{};
  std::map<std::string, std::vector<std::string>> extra{};
  bool operator==(const UserInfo&) const = default;
};

// Whom a request impersonates (the Impersonate-* headers); an empty user: nobody.
struct Impersonation {
  std::string user{};
  std::vector<std::string> groups{};
  std::string uid{};
  std::map<std::string, std::vector<std::string>> extra{};
};

// What a request asks for (authorizer.Attributes).
struct RequestAttributes {
  UserInfo user{};
  std::string verb{};
  bool resource_request = true;
  // A resource request:
  std::string group{}, resource{}, subresource{}, namespace_{}, name{};
  // A non-resource request ("/healthz"):
  std::string path{};
};

struct PolicyRule {
  std::vector<std::string> verbs{}, api_groups{}, resources{}, resource_names{}, non_resource_urls{};
  bool operator==(const PolicyRule&) const = default;
};

PolicyRule policy_rule_of(const Json& rule);
Json to_json(const PolicyRule& rule);

// One rule against one request, as rbac.RuleAllows: verb, group, resource ("*", exact
// "resource/subresource", or "*/subresource"), and resourceNames (none: any name; otherwise the
// request's name must be listed, so an unnamed list or create never matches).
bool rule_allows(const RequestAttributes& request, const PolicyRule& rule);

// "system:serviceaccount:<ns>:<name>"
std::string service_account_user(std::string_view namespace_, std::string_view name);

// The objects an evaluation reads, as the API server's listers hold them.
struct RbacObjects {
  std::vector<Json> roles, role_bindings, cluster_roles, cluster_role_bindings;
};

struct GrantedRule {
  PolicyRule rule;
  // "ClusterRoleBinding \"b\" of ClusterRole \"r\" to User \"u\"", as upstream's describers.
  std::string source;
};

struct GrantedRules {
  std::vector<GrantedRule> rules;
  // Bindings whose role is missing: "clusterrole.rbac.authorization.k8s.io \"x\" not found".
  std::vector<std::string> errors;
};

// The rules of the ClusterRoleBindings, then (for a namespace) of that namespace's RoleBindings,
// that bind `user`, in list order.
GrantedRules rules_for(const RbacObjects& objects, const UserInfo& user, const std::string& namespace_);

struct Decision {
  bool allowed = false;
  std::string reason;  // "RBAC: allowed by <source>"; on a denial the resolution errors, if any
};

// RBAC alone (no system:masters shortcut): allowed by the first rule that allows the request.
Decision rbac_authorize(const RbacObjects& objects, const RequestAttributes& request);

// The bindings a decision in one namespace reads, parsed once and their roles resolved (the
// objects change far less often than requests come): ClusterRoleBindings first, then the
// namespace's RoleBindings, in list order.
struct CompiledBinding {
  struct Subject {
    std::string kind, name, namespace_;
  };
  std::vector<Subject> subjects;
  std::string binding_namespace;  // "" for a ClusterRoleBinding
  std::vector<PolicyRule> rules;  // its role's, aggregation resolved
  std::string error;              // the role is missing ("clusterrole... not found")
  std::string source_prefix;      // "ClusterRoleBinding \"b\" of ClusterRole \"r\" to "
};
struct CompiledRbac {
  std::vector<CompiledBinding> bindings;
};
CompiledRbac compile_rbac(const RbacObjects& objects, const std::string& namespace_);
// rules_for() and rbac_authorize() over compiled bindings: the same answers, reasons included.
GrantedRules rules_for(const CompiledRbac& compiled, const UserInfo& user);
Decision rbac_authorize(const CompiledRbac& compiled, const RequestAttributes& request);

// The rules of a ClusterRole; for an aggregated one, the union of the rules of the ClusterRoles
// its clusterRoleSelectors match (themselves resolved the same way), duplicates dropped.
std::vector<PolicyRule> cluster_role_rules(const RbacObjects& objects, const Json& cluster_role);

// The rules a binding's roleRef points at (GetRoleReferenceRules): a Role of `binding_namespace`
// or a ClusterRole (aggregation resolved); `error` says which role is missing.
struct RoleRules {
  std::vector<PolicyRule> rules;
  std::string error;
};
RoleRules role_reference_rules(const RbacObjects& objects, const Json& role_ref, const std::string& binding_namespace);

// utilerrors.NewAggregate's text: one error as it is, several as "[a, b]".
std::string aggregate_errors(const std::vector<std::string>& errors);

}  // namespace rr::apiserver_detail
