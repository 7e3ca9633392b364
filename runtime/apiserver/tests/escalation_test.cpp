// RBAC escalation prevention: the rule-covering cases of upstream's policy comparator restated,
// the error text, and writes of roles and bindings over HTTP as a user who holds little.
#include <doctest/doctest.h>

#include "escalation_check.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;
using namespace rr::apiserver_detail;

namespace {

PolicyRule resource_rule(std::vector<std::string> verbs, std::vector<std::string> groups,
                         std::vector<std::string> resources, std::vector<std::string> names = {}) {
  return PolicyRule{.verbs = std::move(verbs),
                    .api_groups = std::move(groups),
                    .resources = std::move(resources),
                    .resource_names = std::move(names)};
}

PolicyRule url_rule(std::vector<std::string> verbs, std::vector<std::string> urls) {
  return PolicyRule{.verbs = std::move(verbs), .non_resource_urls = std::move(urls)};
}

struct CoverCase {
  const char* name;
  std::vector<PolicyRule> owner, servant;
  bool covers;
};

}  // namespace

TEST_CASE("escalation: which rules cover which (upstream's policy comparator cases)") {
  const std::vector<CoverCase> cases = {
      {"exact match",
       {resource_rule({"get", "list"}, {"v1"}, {"builds"})},
       {resource_rule({"get"}, {"v1"}, {"builds"})},
       true},
      {"a verb missing",
       {resource_rule({"get"}, {"v1"}, {"builds"})},
       {resource_rule({"get", "delete"}, {"v1"}, {"builds"})},
       false},
      {"star verb", {resource_rule({"*"}, {"v1"}, {"builds"})}, {resource_rule({"delete"}, {"v1"}, {"builds"})}, true},
      {"star group", {resource_rule({"get"}, {"*"}, {"builds"})}, {resource_rule({"get"}, {"apps"}, {"builds"})}, true},
      {"star resource",
       {resource_rule({"get"}, {""}, {"*"})},
       {resource_rule({"get"}, {""}, {"pods", "pods/log"})},
       true},
      {"star subresource covers that subresource",
       {resource_rule({"get"}, {""}, {"*/status"})},
       {resource_rule({"get"}, {""}, {"pods/status"})},
       true},
      {"star subresource does not cover the resource",
       {resource_rule({"get"}, {""}, {"*/status"})},
       {resource_rule({"get"}, {""}, {"pods"})},
       false},
      {"a resource does not cover its subresource",
       {resource_rule({"get"}, {""}, {"pods"})},
       {resource_rule({"get"}, {""}, {"pods/log"})},
       false},
      {"split across owner rules",
       {resource_rule({"get"}, {""}, {"pods"}), resource_rule({"list"}, {""}, {"pods"})},
       {resource_rule({"get", "list"}, {""}, {"pods"})},
       true},
      {"names: any name covers one",
       {resource_rule({"get"}, {""}, {"secrets"})},
       {resource_rule({"get"}, {""}, {"secrets"}, {"a"})},
       true},
      {"names: one name does not cover any",
       {resource_rule({"get"}, {""}, {"secrets"}, {"a"})},
       {resource_rule({"get"}, {""}, {"secrets"})},
       false},
      {"names: listed ones",
       {resource_rule({"get"}, {""}, {"secrets"}, {"a", "b"})},
       {resource_rule({"get"}, {""}, {"secrets"}, {"b"})},
       true},
      {"urls: exact", {url_rule({"get"}, {"/healthz"})}, {url_rule({"get"}, {"/healthz"})}, true},
      {"urls: star suffix", {url_rule({"get"}, {"/apis/*"})}, {url_rule({"get"}, {"/apis/apps"})}, true},
      {"urls: another path", {url_rule({"get"}, {"/api/*"})}, {url_rule({"get"}, {"/apis/apps"})}, false},
      {"urls are not resources", {url_rule({"*"}, {"*"})}, {resource_rule({"get"}, {""}, {"pods"})}, false},
      {"resources are not urls", {resource_rule({"*"}, {"*"}, {"*"})}, {url_rule({"get"}, {"/metrics"})}, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(uncovered_rules(c.owner, c.servant).empty() == c.covers);
  }
  CHECK(breakdown_rule(resource_rule({"get", "list"}, {"", "apps"}, {"pods"}, {"a", "b"})).size() == 8);
}

TEST_CASE("escalation: the message names the missing rules, compacted and sorted") {
  const UserInfo user{"bob", {"dev", "system:authenticated"}};
  const auto missing = uncovered_rules(
      {resource_rule({"get"}, {""}, {"pods"})},
      {resource_rule({"get", "list", "watch"}, {""}, {"secrets", "pods"}), url_rule({"get"}, {"/metrics"})});
  CHECK(escalation_message(user, missing, {}) ==
        "user \"bob\" (groups=[\"dev\" \"system:authenticated\"]) is attempting to grant RBAC permissions not "
        "currently held:\n"
        "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"list\" \"watch\"]}\n"
        "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\" \"watch\"]}\n"
        "{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}");
  CHECK(escalation_message(user, missing, {"clusterrole.rbac.authorization.k8s.io \"x\" not found"})
            .ends_with("; resolution errors: [clusterrole.rbac.authorization.k8s.io \"x\" not found]"));
}

namespace {

struct RbacServer {
  TestServer t;
  RbacServer()
      : t([] {
          ApiServerOptions options;
          options.authorization = AuthorizationMode::RBAC;
          options.static_tokens = {{"admin-token", "admin", {"system:masters"}}, {"bob-token", "bob", {"dev"}}};
          return options;
        }()) {}

  httplib::Result send(const std::string& token, const std::string& method, const std::string& path,
                       const Json& body = {}) {
    auto client = t.client();
    const httplib::Headers headers{{"Authorization", "Bearer " + token}};
    if (method == "POST") return client->Post(path, headers, body.dump(), "application/json");
    if (method == "PUT") return client->Put(path, headers, body.dump(), "application/json");
    return client->Patch(path, headers, body.dump(), "application/merge-patch+json");
  }
  void admin(const std::string& path, const Json& body) {
    auto r = send("admin-token", "POST", path, body);
    REQUIRE(r);
    REQUIRE_MESSAGE(r->status == 201, r->body);
  }
};

Json role(const std::string& name, const Json& rules) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "Role"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"rules", rules}};
}

Json binding(const std::string& name, const std::string& role_kind, const std::string& role_name) {
  return {{"apiVersion", "rbac.authorization.k8s.io/v1"},
          {"kind", "RoleBinding"},
          {"metadata", {{"name", name}, {"namespace", "default"}}},
          {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", role_kind}, {"name", role_name}}},
          {"subjects", {{{"kind", "User"}, {"name", "bob"}, {"apiGroup", "rbac.authorization.k8s.io"}}}}};
}

}  // namespace

TEST_CASE("escalation over HTTP: roles and bindings grant only what the writer holds") {
  RbacServer s;
  const std::string roles = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles";
  const std::string bindings = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings";
  // bob may write roles and bindings and read pods, nothing more.
  s.admin(roles,
          role("rbac-writer", Json::array({{{"apiGroups", {"rbac.authorization.k8s.io"}},
                                            {"resources", {"roles", "rolebindings"}},
                                            {"verbs", {"create", "update", "patch", "get"}}},
                                           {{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get"}}}})));
  s.admin(bindings, binding("bob-writer", "Role", "rbac-writer"));

  const Json pods_reader = role("pods-reader",
                                Json::array({{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get"}}}}));
  auto held = s.send("bob-token", "POST", roles, pods_reader);
  REQUIRE(held);
  CHECK(held->status == 201);

  const Json secrets_reader = role(
      "secrets-reader", Json::array({{{"apiGroups", {""}}, {"resources", {"secrets"}}, {"verbs", {"get", "list"}}}}));
  auto escalation = s.send("bob-token", "POST", roles, secrets_reader);
  REQUIRE(escalation);
  CHECK(escalation->status == 403);
  CHECK(body_of(escalation)["message"] ==
        "roles.rbac.authorization.k8s.io \"secrets-reader\" is forbidden: user \"bob\" (groups=[\"dev\" "
        "\"system:authenticated\"]) is attempting to grant RBAC permissions not currently held:\n"
        "{APIGroups:[\"\"], Resources:[\"secrets\"], Verbs:[\"get\" \"list\"]}");

  SUBCASE("a patch that widens a role held is refused; one that stays within is not") {
    auto widen = s.send(
        "bob-token", "PATCH", roles + "/pods-reader",
        Json{{"rules", {{{"apiGroups", {""}}, {"resources", {"pods"}}, {"verbs", {"get", "delete"}}}}}});
    REQUIRE(widen);
    CHECK(widen->status == 403);
    auto label = s.send("bob-token", "PATCH", roles + "/pods-reader", Json{{"metadata", {{"labels", {{"a", "b"}}}}}});
    REQUIRE(label);
    CHECK(label->status == 200);
  }
  SUBCASE("binding a role whose rules bob lacks is refused, unless he may bind it") {
    auto bind_edit = s.send("bob-token", "POST", bindings, binding("bob-edit", "ClusterRole", "edit"));
    REQUIRE(bind_edit);
    CHECK(bind_edit->status == 403);
    CHECK(body_of(bind_edit)["message"].get<std::string>().starts_with(
        "rolebindings.rbac.authorization.k8s.io \"bob-edit\" is forbidden: user \"bob\""));
    auto bind_missing = s.send("bob-token", "POST", bindings, binding("bob-none", "ClusterRole", "no-such-role"));
    REQUIRE(bind_missing);
    CHECK(body_of(bind_missing)["message"] ==
          "rolebindings.rbac.authorization.k8s.io \"bob-none\" is forbidden: clusterrole.rbac.authorization.k8s.io "
          "\"no-such-role\" not found");
    auto bind_held = s.send("bob-token", "POST", bindings, binding("bob-pods", "Role", "pods-reader"));
    REQUIRE(bind_held);
    CHECK(bind_held->status == 201);

    s.admin(roles, role("binder", Json::array({{{"apiGroups", {"rbac.authorization.k8s.io"}},
                                                {"resources", {"clusterroles"}},
                                                {"resourceNames", {"edit"}},
                                                {"verbs", {"bind"}}}})));
    s.admin(bindings, binding("bob-binder", "Role", "binder"));
    auto bind_allowed = s.send("bob-token", "POST", bindings, binding("bob-edit", "ClusterRole", "edit"));
    REQUIRE(bind_allowed);
    CHECK(bind_allowed->status == 201);
  }
  SUBCASE("escalate on roles lets bob write any role") {
    s.admin(roles, role("escalator", Json::array({{{"apiGroups", {"rbac.authorization.k8s.io"}},
                                                   {"resources", {"roles"}},
                                                   {"verbs", {"escalate"}}}})));
    s.admin(bindings, binding("bob-escalator", "Role", "escalator"));
    auto escalated = s.send("bob-token", "POST", roles, secrets_reader);
    REQUIRE(escalated);
    CHECK(escalated->status == 201);
  }
  SUBCASE("a binding's roleRef cannot change") {
    auto changed = s.send(
        "admin-token", "PATCH", bindings + "/bob-writer",
        Json{{"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "view"}}}});
    REQUIRE(changed);
    CHECK(changed->status == 422);
    CHECK(body_of(changed)["message"] ==
          "RoleBinding.rbac.authorization.k8s.io \"bob-writer\" is invalid: roleRef: Invalid value: "
          "{\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"ClusterRole\",\"Name\":\"view\"}: cannot change "
          "roleRef");  // 1.35's field errors print a struct as JSON (rr::validation, docs/runtime/35)
  }
}

TEST_CASE("escalation over HTTP: an aggregationRule needs full authority") {
  RbacServer s;
  const std::string cluster_roles = "/apis/rbac.authorization.k8s.io/v1/clusterroles";
  s.admin(
      cluster_roles,
      Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
           {"kind", "ClusterRole"},
           {"metadata", {{"name", "role-writer"}}},
           {"rules",
            {{{"apiGroups", {"rbac.authorization.k8s.io"}}, {"resources", {"clusterroles"}}, {"verbs", {"create"}}}}}});
  s.admin(
      "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings",
      Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
           {"kind", "ClusterRoleBinding"},
           {"metadata", {{"name", "bob-role-writer"}}},
           {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", "role-writer"}}},
           {"subjects", {{{"kind", "User"}, {"name", "bob"}, {"apiGroup", "rbac.authorization.k8s.io"}}}}});
  auto aggregated = s.send("bob-token", "POST", cluster_roles,
                           Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
                                {"kind", "ClusterRole"},
                                {"metadata", {{"name", "gatherer"}}},
                                {"aggregationRule", {{"clusterRoleSelectors", {{{"matchLabels", {{"x", "y"}}}}}}}}});
  REQUIRE(aggregated);
  CHECK(aggregated->status == 403);
  CHECK(body_of(aggregated)["message"] ==
        "clusterroles.rbac.authorization.k8s.io \"gatherer\" is forbidden: must have cluster-admin privileges to use "
        "the aggregationRule");
}
