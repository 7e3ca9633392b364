// The RBAC authorizer's semantics, restated as tables: one rule against one request, then users
// against roles and bindings (cluster and namespaced, ServiceAccount subjects, aggregation).
#include <doctest/doctest.h>

#include "rbac_authorizer.hpp"

using namespace rr;
using namespace rr::apiserver_detail;

namespace {

RequestAttributes resource_request(std::string verb, std::string group, std::string resource, std::string subresource,
                                   std::string namespace_, std::string name) {
  return RequestAttributes{.user = {},
                           .verb = std::move(verb),
                           .resource_request = true,
                           .group = std::move(group),
                           .resource = std::move(resource),
                           .subresource = std::move(subresource),
                           .namespace_ = std::move(namespace_),
                           .name = std::move(name)};
}

RequestAttributes url_request(std::string verb, std::string path) {
  return RequestAttributes{.verb = std::move(verb), .resource_request = false, .path = std::move(path)};
}

Json meta(const std::string& name, const std::string& namespace_ = "", Json labels = Json::object()) {
  Json m = {{"name", name}, {"labels", std::move(labels)}};
  if (!namespace_.empty()) m["namespace"] = namespace_;
  return m;
}

Json role(const std::string& kind, const std::string& name, const std::string& namespace_, Json rules) {
  return Json{{"kind", kind}, {"metadata", meta(name, namespace_)}, {"rules", std::move(rules)}};
}

Json binding(const std::string& kind, const std::string& name, const std::string& namespace_,
             const std::string& ref_kind, const std::string& ref_name, Json subjects) {
  return Json{{"kind", kind},
              {"metadata", meta(name, namespace_)},
              {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", ref_kind}, {"name", ref_name}}},
              {"subjects", std::move(subjects)}};
}

Json subject(const std::string& kind, const std::string& name, const std::string& namespace_ = "") {
  Json s = {{"kind", kind}, {"name", name}};
  if (!namespace_.empty()) s["namespace"] = namespace_;
  return s;
}

}  // namespace

TEST_CASE("rule_allows: verbs, groups, resources, subresources, names and URLs as upstream matches them") {
  struct Case {
    const char* what;
    Json rule;
    RequestAttributes request;
    bool allowed;
  };
  const Json pods_get = {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"pods"}}};
  const std::vector<Case> cases = {
      {"exact verb, group, resource", pods_get, resource_request("get", "", "pods", "", "ns", "p"), true},
      {"another verb", pods_get, resource_request("list", "", "pods", "", "ns", ""), false},
      {"another group", pods_get, resource_request("get", "apps", "pods", "", "ns", "p"), false},
      {"a subresource needs its own entry", pods_get, resource_request("get", "", "pods", "log", "ns", "p"), false},
      {"verb *",
       {{"verbs", {"*"}}, {"apiGroups", {""}}, {"resources", {"pods"}}},
       resource_request("deletecollection", "", "pods", "", "ns", ""),
       true},
      {"apiGroups *",
       {{"verbs", {"get"}}, {"apiGroups", {"*"}}, {"resources", {"deployments"}}},
       resource_request("get", "apps", "deployments", "", "ns", "d"),
       true},
      {"resources * covers subresources",
       {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"*"}}},
       resource_request("get", "", "pods", "status", "ns", "p"),
       true},
      {"*/scale: any resource's scale",
       {{"verbs", {"update"}}, {"apiGroups", {"apps"}}, {"resources", {"*/scale"}}},
       resource_request("update", "apps", "deployments", "scale", "ns", "d"),
       true},
      {"*/scale is not the resource itself",
       {{"verbs", {"update"}}, {"apiGroups", {"apps"}}, {"resources", {"*/scale"}}},
       resource_request("update", "apps", "deployments", "", "ns", "d"),
       false},
      {"*/scale is not another subresource",
       {{"verbs", {"update"}}, {"apiGroups", {"apps"}}, {"resources", {"*/scale"}}},
       resource_request("update", "apps", "deployments", "status", "ns", "d"),
       false},
      {"resource/subresource",
       {{"verbs", {"update"}}, {"apiGroups", {"shop.dev"}}, {"resources", {"webapps/status"}}},
       resource_request("update", "shop.dev", "webapps", "status", "ns", "w"),
       true},
      {"resource/subresource is not the resource",
       {{"verbs", {"update"}}, {"apiGroups", {"shop.dev"}}, {"resources", {"webapps/finalizers"}}},
       resource_request("update", "shop.dev", "webapps", "", "ns", "w"),
       false},
      {"resourceNames: a listed name",
       {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"secrets"}}, {"resourceNames", {"a"}}},
       resource_request("get", "", "secrets", "", "ns", "a"),
       true},
      {"resourceNames: another name",
       {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"secrets"}}, {"resourceNames", {"a"}}},
       resource_request("get", "", "secrets", "", "ns", "b"),
       false},
      {"resourceNames never match a list (no name)",
       {{"verbs", {"list"}}, {"apiGroups", {""}}, {"resources", {"secrets"}}, {"resourceNames", {"a"}}},
       resource_request("list", "", "secrets", "", "ns", ""),
       false},
      {"resourceNames never match a create without a name",
       {{"verbs", {"create"}}, {"apiGroups", {""}}, {"resources", {"secrets"}}, {"resourceNames", {"a"}}},
       resource_request("create", "", "secrets", "", "ns", ""),
       false},
      {"a rule with no apiGroups matches no resource",
       {{"verbs", {"get"}}, {"resources", {"pods"}}},
       resource_request("get", "", "pods", "", "ns", "p"),
       false},
      {"nonResourceURLs exact",
       {{"verbs", {"get"}}, {"nonResourceURLs", {"/healthz"}}},
       url_request("get", "/healthz"),
       true},
      {"nonResourceURLs exact is not a prefix",
       {{"verbs", {"get"}}, {"nonResourceURLs", {"/healthz"}}},
       url_request("get", "/healthz/etcd"),
       false},
      {"nonResourceURLs trailing * is a prefix",
       {{"verbs", {"get"}}, {"nonResourceURLs", {"/apis/*"}}},
       url_request("get", "/apis/apps/v1"),
       true},
      {"nonResourceURLs trailing * needs the prefix",
       {{"verbs", {"get"}}, {"nonResourceURLs", {"/apis/*"}}},
       url_request("get", "/apis"),
       false},
      {"nonResourceURLs *", {{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}, url_request("post", "/anything"), true},
      {"a URL rule matches no resource",
       {{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}},
       resource_request("get", "", "pods", "", "ns", "p"),
       false},
      {"a resource rule matches no URL",
       {{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}},
       url_request("get", "/healthz"),
       false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK(rule_allows(c.request, policy_rule_of(c.rule)) == c.allowed);
  }
}

TEST_CASE("rbac_authorize: bindings, subjects and role references") {
  RbacObjects objects;
  objects.cluster_roles = {
      role("ClusterRole", "secret-reader", "",
           Json::array({{{"verbs", {"get", "list"}}, {"apiGroups", {""}}, {"resources", {"secrets"}}}})),
      role("ClusterRole", "node-reader", "",
           Json::array({{{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"nodes"}}}})),
      role("ClusterRole", "healthz", "", Json::array({{{"verbs", {"get"}}, {"nonResourceURLs", {"/healthz"}}}})),
  };
  objects.roles = {role("Role", "pod-writer", "shop",
                        Json::array({{{"verbs", {"create"}}, {"apiGroups", {""}}, {"resources", {"pods"}}}}))};
  objects.cluster_role_bindings = {
      binding("ClusterRoleBinding", "nodes", "", "ClusterRole", "node-reader", Json::array({subject("Group", "ops")})),
      binding("ClusterRoleBinding", "health", "", "ClusterRole", "healthz",
              Json::array({subject("Group", "system:authenticated")})),
      binding("ClusterRoleBinding", "sa-nodes", "", "ClusterRole", "node-reader",
              Json::array({subject("ServiceAccount", "nodes-sa")})),  // no namespace: matches nobody
  };
  objects.role_bindings = {
      binding("RoleBinding", "read-secrets", "shop", "ClusterRole", "secret-reader",
              Json::array({subject("ServiceAccount", "app")})),  // the binding's namespace
      binding("RoleBinding", "writers", "shop", "Role", "pod-writer", Json::array({subject("User", "jane")})),
      binding("RoleBinding", "dangling", "shop", "Role", "missing", Json::array({subject("User", "joe")})),
  };

  const UserInfo app{"system:serviceaccount:shop:app",
                     {"system:serviceaccounts", "system:serviceaccounts:shop", "system:authenticated"}};
  const UserInfo other_app{"system:serviceaccount:web:app", {"system:authenticated"}};
  const UserInfo jane{"jane", {"system:authenticated"}};
  const UserInfo ops{"olga", {"ops", "system:authenticated"}};
  const UserInfo joe{"joe", {"system:authenticated"}};
  const UserInfo nodes_sa{"system:serviceaccount:kube-system:nodes-sa", {}};

  struct Case {
    const char* what;
    UserInfo user;
    RequestAttributes request;
    bool allowed;
    std::string reason;
  };
  auto as = [](const UserInfo& user, RequestAttributes request) {
    request.user = user;
    return request;
  };
  const std::vector<Case> cases = {
      {"a RoleBinding of a ClusterRole grants it in its namespace", app,
       as(app, resource_request("list", "", "secrets", "", "shop", "")), true,
       "RBAC: allowed by RoleBinding \"read-secrets/shop\" of ClusterRole \"secret-reader\" to ServiceAccount "
       "\"app/shop\""},
      {"... and nowhere else", app, as(app, resource_request("list", "", "secrets", "", "web", "")), false, ""},
      {"... not cluster-wide", app, as(app, resource_request("list", "", "secrets", "", "", "")), false, ""},
      {"a ServiceAccount of another namespace", other_app,
       as(other_app, resource_request("list", "", "secrets", "", "shop", "")), false, ""},
      {"a User subject and a Role", jane, as(jane, resource_request("create", "", "pods", "", "shop", "")), true,
       "RBAC: allowed by RoleBinding \"writers/shop\" of Role \"pod-writer\" to User \"jane\""},
      {"the Role grants only its verbs", jane, as(jane, resource_request("delete", "", "pods", "", "shop", "p")), false,
       ""},
      {"a Group subject of a ClusterRoleBinding", ops, as(ops, resource_request("get", "", "nodes", "", "", "n1")),
       true, "RBAC: allowed by ClusterRoleBinding \"nodes\" of ClusterRole \"node-reader\" to Group \"ops\""},
      {"a ClusterRoleBinding applies in every namespace", ops,
       as(ops, resource_request("get", "", "nodes", "", "shop", "n1")), true,
       "RBAC: allowed by ClusterRoleBinding \"nodes\" of ClusterRole \"node-reader\" to Group \"ops\""},
      {"a non-resource URL through system:authenticated", jane, as(jane, url_request("get", "/healthz")), true,
       "RBAC: allowed by ClusterRoleBinding \"health\" of ClusterRole \"healthz\" to Group \"system:authenticated\""},
      {"a ServiceAccount subject without a namespace in a ClusterRoleBinding matches nobody", nodes_sa,
       as(nodes_sa, resource_request("get", "", "nodes", "", "", "n1")), false, ""},
      {"a binding to a missing role: denied with the error as reason", joe,
       as(joe, resource_request("get", "", "pods", "", "shop", "p")), false,
       "RBAC: role.rbac.authorization.k8s.io \"missing\" not found"},
      {"system:masters is no RBAC subject by itself", UserInfo{"root", {"system:masters"}},
       as(UserInfo{"root", {"system:masters"}}, resource_request("get", "", "pods", "", "shop", "p")), false, ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const Decision decision = rbac_authorize(objects, c.request);
    CHECK(decision.allowed == c.allowed);
    CHECK(decision.reason == c.reason);
  }
}

TEST_CASE("aggregated ClusterRoles: the union of the rules of the roles their selectors match") {
  auto labelled = [](const std::string& name, Json labels, Json rules) {
    return Json{{"kind", "ClusterRole"}, {"metadata", meta(name, "", std::move(labels))}, {"rules", std::move(rules)}};
  };
  auto aggregated = [](const std::string& name, Json labels, Json selector) {
    return Json{{"kind", "ClusterRole"},
                {"metadata", meta(name, "", std::move(labels))},
                {"aggregationRule", {{"clusterRoleSelectors", Json::array({std::move(selector)})}}},
                {"rules", Json::array()}};
  };
  const Json read_pods = {{"verbs", {"get"}}, {"apiGroups", {""}}, {"resources", {"pods"}}};
  const Json write_pods = {{"verbs", {"create"}}, {"apiGroups", {""}}, {"resources", {"pods"}}};
  const Json read_webapps = {{"verbs", {"get"}}, {"apiGroups", {"shop.dev"}}, {"resources", {"webapps"}}};
  RbacObjects objects;
  objects.cluster_roles = {
      aggregated("view", {{"aggregate-to-edit", "true"}}, {{"matchLabels", {{"aggregate-to-view", "true"}}}}),
      aggregated("edit", Json::object(), {{"matchLabels", {{"aggregate-to-edit", "true"}}}}),
      labelled("view-pods", {{"aggregate-to-view", "true"}}, Json::array({read_pods})),
      labelled("view-webapps", {{"aggregate-to-view", "true"}}, Json::array({read_webapps, read_pods})),
      labelled("edit-pods", {{"aggregate-to-edit", "true"}}, Json::array({write_pods})),
      labelled("unrelated", {{"team", "a"}},
               Json::array({{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}})),
      aggregated("by-expression", Json::object(),
                 {{"matchExpressions", Json::array({{{"key", "team"}, {"operator", "In"}, {"values", {"a", "b"}}}})}}),
  };
  // Matched roles by name, duplicates dropped.
  CHECK(cluster_role_rules(objects, objects.cluster_roles[0]) ==
        std::vector<PolicyRule>{policy_rule_of(read_pods), policy_rule_of(read_webapps)});
  // edit takes view's aggregated rules too (view carries aggregate-to-edit).
  CHECK(cluster_role_rules(objects, objects.cluster_roles[1]) ==
        std::vector<PolicyRule>{policy_rule_of(write_pods), policy_rule_of(read_pods), policy_rule_of(read_webapps)});
  CHECK(cluster_role_rules(objects, objects.cluster_roles[6]).size() == 1);

  objects.role_bindings = {
      binding("RoleBinding", "editors", "shop", "ClusterRole", "edit", Json::array({subject("User", "jane")}))};
  RequestAttributes request = resource_request("get", "shop.dev", "webapps", "", "shop", "w");
  request.user = UserInfo{"jane", {}};
  CHECK(rbac_authorize(objects, request).allowed);
  request.verb = "delete";
  CHECK_FALSE(rbac_authorize(objects, request).allowed);
}

TEST_CASE("rules_for lists the cluster-wide rules, then the namespace's, with a missing role as an error") {
  RbacObjects objects;
  objects.cluster_roles = {
      role("ClusterRole", "r", "", Json::array({{{"verbs", {"get"}}, {"nonResourceURLs", {"/x"}}}}))};
  objects.cluster_role_bindings = {
      binding("ClusterRoleBinding", "b", "", "ClusterRole", "r", Json::array({subject("User", "u")})),
      binding("ClusterRoleBinding", "gone", "", "ClusterRole", "nope", Json::array({subject("User", "u")})),
  };
  objects.roles = {
      role("Role", "r", "ns", Json::array({{{"verbs", {"list"}}, {"apiGroups", {""}}, {"resources", {"pods"}}}}))};
  objects.role_bindings = {binding("RoleBinding", "rb", "ns", "Role", "r", Json::array({subject("User", "u")}))};
  const GrantedRules granted = rules_for(objects, UserInfo{"u", {}}, "ns");
  REQUIRE(granted.rules.size() == 2);
  CHECK(granted.rules[0].rule.non_resource_urls == std::vector<std::string>{"/x"});
  CHECK(granted.rules[1].rule.resources == std::vector<std::string>{"pods"});
  CHECK(granted.errors == std::vector<std::string>{"clusterrole.rbac.authorization.k8s.io \"nope\" not found"});
  CHECK(rules_for(objects, UserInfo{"u", {}}, "").rules.size() == 1);
  CHECK(aggregate_errors({"a", "b"}) == "[a, b]");
}
