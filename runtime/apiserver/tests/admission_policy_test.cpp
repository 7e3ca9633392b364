// ValidatingAdmissionPolicy over HTTP: the policy plugin runs before the webhooks, a Deny is the
// API server's 422 Status, a Warn binding a Warning header, and the `authorizer` variable asks
// the server's RBAC authorizer for the request's user.
#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

const std::string policies = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies";
const std::string bindings = "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings";
const std::string deployments = "/apis/apps/v1/namespaces/default/deployments";

Json deployment(const std::string& name, int replicas) {
  Json object = Json::parse(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"namespace":"default"},
    "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
    "spec":{"containers":[{"name":"web","image":"nginx"}]}}}})");
  object["metadata"]["name"] = name;
  object["spec"]["replicas"] = replicas;
  return object;
}

Json policy(const std::string& name, const std::string& expression) {
  return Json{{"apiVersion", "admissionregistration.k8s.io/v1"},
              {"kind", "ValidatingAdmissionPolicy"},
              {"metadata", {{"name", name}}},
              {"spec",
               {{"matchConstraints", Json::parse(R"({"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],
                   "operations":["CREATE","UPDATE"],"resources":["deployments"]}]})")},
                {"validations", Json::array({{{"expression", expression}}})}}}};
}

Json binding(const std::string& name, const std::string& policy_name, const std::string& action) {
  return Json{{"apiVersion", "admissionregistration.k8s.io/v1"},
              {"kind", "ValidatingAdmissionPolicyBinding"},
              {"metadata", {{"name", name}}},
              {"spec", {{"policyName", policy_name}, {"validationActions", {action}}}}};
}

}  // namespace

TEST_CASE("admission policy over HTTP: Deny is 422 with the API server's text, Warn a Warning header") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {{"admin-token", "admin", {"system:masters"}}, {"bob-token", "bob", {}}};
  TestServer t(options);
  auto client = t.client();
  auto post = [&](const std::string& token, const std::string& path, const Json& body) {
    auto result = client->Post(path, httplib::Headers{{"Authorization", "Bearer " + token}}, body.dump(),
                               "application/json");
    REQUIRE(result);
    return result;
  };
  REQUIRE(post("admin-token", policies, policy("max-replicas", "object.spec.replicas <= 5"))->status == 201);
  REQUIRE(post("admin-token", bindings, binding("max-replicas-binding", "max-replicas", "Deny"))->status == 201);
  REQUIRE(post("admin-token", policies, policy("few-replicas", "object.spec.replicas <= 2"))->status == 201);
  REQUIRE(post("admin-token", bindings, binding("few-replicas-warn", "few-replicas", "Warn"))->status == 201);

  auto refused = post("admin-token", deployments, deployment("big", 7));
  CHECK(refused->status == 422);
  const Json status = body_of(refused);
  CHECK(status["reason"] == "Invalid");
  CHECK(status["message"] ==
        "deployments.apps \"big\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding "
        "'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5");
  CHECK(status["details"]["causes"][0]["message"] ==
        "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed "
        "expression: object.spec.replicas <= 5");

  // The status controller's part: observedGeneration, and typeChecking without warnings.
  Json stored;
  for (int i = 0; i < 200 && !stored.contains("status"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stored = body_of(
        client->Get(policies + "/max-replicas", httplib::Headers{{"Authorization", "Bearer admin-token"}}));
  }
  CHECK(stored["status"] == Json::parse(R"({"observedGeneration":1,"typeChecking":{}})"));

  auto warned = post("admin-token", deployments, deployment("medium", 3));
  CHECK(warned->status == 201);
  CHECK(warned->get_header_value("Warning") ==
        "299 - \"Validation failed for ValidatingAdmissionPolicy 'few-replicas' with binding 'few-replicas-warn': "
        "failed expression: object.spec.replicas <= 2\"");
}

TEST_CASE("admission policy over HTTP: the authorizer variable is the server's RBAC for the request's user") {
  ApiServerOptions options;
  options.authorization = AuthorizationMode::RBAC;
  options.static_tokens = {{"admin-token", "admin", {"system:masters"}}, {"bob-token", "bob", {}}};
  TestServer t(options);
  auto client = t.client();
  auto post = [&](const std::string& token, const std::string& path, const Json& body) {
    auto result = client->Post(path, httplib::Headers{{"Authorization", "Bearer " + token}}, body.dump(),
                               "application/json");
    REQUIRE(result);
    return result;
  };
  // Only users who may delete deployments may create one with more than 3 replicas.
  REQUIRE(
      post("admin-token", policies,
           policy("admins-scale",
                  "object.spec.replicas <= 3 || "
                  "authorizer.group('apps').resource('deployments').namespace('default').check('delete').allowed()"))
          ->status == 201);
  REQUIRE(post("admin-token", bindings, binding("admins-scale", "admins-scale", "Deny"))->status == 201);
  const Json role = Json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"Role",
    "metadata":{"name":"deployer","namespace":"default"},
    "rules":[{"apiGroups":["apps"],"resources":["deployments"],"verbs":["create","get"]}]})");
  const Json role_binding = Json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
    "metadata":{"name":"bob-deployer","namespace":"default"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"deployer"},
    "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"bob"}]})");
  REQUIRE(post("admin-token", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles", role)->status == 201);
  REQUIRE(
      post("admin-token", "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings", role_binding)->status ==
      201);

  CHECK(post("bob-token", deployments, deployment("small", 2))->status == 201);
  auto refused = post("bob-token", deployments, deployment("large", 5));
  CHECK(refused->status == 422);
  CHECK(body_of(refused)["message"].get<std::string>().find("ValidatingAdmissionPolicy 'admins-scale'") !=
        std::string::npos);
  CHECK(post("admin-token", deployments, deployment("large", 5))->status == 201);
}
