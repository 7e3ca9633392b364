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

namespace {

Json policy_on(const std::string& name, const std::string& group, const std::string& resource,
               const std::string& expression) {
  Json p = policy(name, expression);
  p["spec"]["matchConstraints"]["resourceRules"][0]["apiGroups"] = {group};
  p["spec"]["matchConstraints"]["resourceRules"][0]["resources"] = {resource};
  return p;
}

Json widget_crd() {
  return Json::parse(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
    "metadata":{"name":"widgets.typed.rrgen.dev"},
    "spec":{"group":"typed.rrgen.dev","names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced",
      "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object",
        "properties":{"spec":{"type":"object","properties":{"color":{"type":"string"}}}}}}}]}})");
}

}  // namespace

TEST_CASE("admission policy over HTTP: type checking against the built-in schemas and a CRD's, in the status") {
  TestServer t;
  auto client = t.client();
  auto post = [&](const std::string& path, const Json& body) {
    auto result = client->Post(path, body.dump(), "application/json");
    REQUIRE(result);
    return result->status;
  };
  // Waits for the status writer's warnings of a policy (nullopt: none written in time).
  auto warnings_of = [&](const std::string& name, bool want_warnings) {
    Json stored;
    for (int i = 0; i < 300; ++i) {
      stored = body_of(client->Get(policies + "/" + name));
      const bool has = stored.contains("/status/typeChecking/expressionWarnings"_json_pointer);
      if (stored.contains("status") && has == want_warnings) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return stored.value("/status/typeChecking"_json_pointer, Json());
  };

  REQUIRE(post(policies, policy("misspelt", "object.spec.replicsa > 1")) == 201);
  const Json misspelt = warnings_of("misspelt", true);
  REQUIRE(misspelt.contains("expressionWarnings"));
  CHECK(misspelt["expressionWarnings"] == Json::parse(R"([{"fieldRef":"spec.validations[0].expression",
    "warning":"apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n | object.spec.replicsa > 1\n | ...........^\n"}])"));

  // The Deployment's whole schema: containers, metadata.labels, an int-or-string.
  REQUIRE(post(policies, policy("fine", "object.spec.template.spec.containers.all(c, c.image != '') && "
                                        "object.metadata.labels['app'] == 'web' && "
                                        "object.spec.strategy.rollingUpdate.maxSurge == '25%'")) == 201);
  CHECK(warnings_of("fine", false) == Json::object());

  // params typed by the paramKind's schema (ConfigMap data: strings).
  Json with_params = policy("params", "object.spec.replicas <= params.data.max");
  with_params["spec"]["paramKind"] = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}};
  REQUIRE(post(policies, with_params) == 201);
  const Json params = warnings_of("params", true);
  REQUIRE(params.contains("expressionWarnings"));
  CHECK(params["expressionWarnings"][0]["warning"].get<std::string>().find(
            "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_<=_' applied to '(int, "
            "string)'") == 0);

  // A policy on a CRD's kind written before the CRD: nothing to check until the CRD comes.
  REQUIRE(post(policies, policy_on("widgets", "typed.rrgen.dev", "widgets", "object.spec.colr == 'red'")) == 201);
  CHECK(warnings_of("widgets", false) == Json::object());
  REQUIRE(post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", widget_crd()) == 201);
  const Json widgets = warnings_of("widgets", true);
  REQUIRE(widgets.contains("expressionWarnings"));
  CHECK(widgets["expressionWarnings"][0]["warning"] ==
        "typed.rrgen.dev/v1, Kind=Widget: ERROR: <input>:1:12: undefined field 'colr'\n"
        " | object.spec.colr == 'red'\n"
        " | ...........^\n");

  // Wildcards: no type checking, as upstream.
  REQUIRE(post(policies, policy_on("wild", "*", "deployments", "object.spec.replicsa > 1")) == 201);
  CHECK(warnings_of("wild", false) == Json::object());
}

TEST_CASE("admission policy over HTTP: a policy whose expression does not compile, a bad binding: 422 as upstream") {
  TestServer t;
  auto client = t.client();
  auto broken = client->Post(policies, policy("broken", "object.spec.replicas <=").dump(), "application/json");
  REQUIRE(broken);
  CHECK(broken->status == 422);
  const Json status = body_of(broken);
  CHECK(status["reason"] == "Invalid");
  CHECK(status["message"].get<std::string>().find(
            "\"broken\" is invalid: spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": "
            "compilation failed: ERROR: <input>:1:") != std::string::npos);
  CHECK(status["details"]["causes"][0]["field"] == "spec.validations[0].expression");

  Json both = binding("both", "broken", "Deny");
  both["spec"]["validationActions"] = {"Deny", "Warn"};
  auto refused = client->Post(bindings, both.dump(), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 422);
  CHECK(body_of(refused)["details"]["causes"][0]["field"] == "spec.validationActions");
  CHECK(client->Post(policies, policy("fine", "object.spec.replicas <= 5").dump(), "application/json")->status == 201);
}
