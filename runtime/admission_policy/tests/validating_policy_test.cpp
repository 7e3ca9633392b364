// ValidatingAdmissionPolicy over an in-memory rr::Cluster: matching, params, actions, messages,
// failurePolicy, variables, the authorizer and audit annotations, with the API server's texts.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "rr/admission_policy/admission_chain.hpp"
#include "rr/admission_policy/policy_status.hpp"
#include "rr/admission_policy/validating_policy.hpp"
#include "rr/client/api_error.hpp"

namespace {

using rr::Json;
using rr::KindInfo;
using rr::Scope;
namespace ap = rr::admission_policy;

const KindInfo namespaces{{"", "v1", "Namespace"}, "namespaces", "NamespaceList", Scope::Cluster};
const KindInfo configmaps{{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", Scope::Namespaced};
const KindInfo deployments{{"apps", "v1", "Deployment"}, "deployments", "DeploymentList", Scope::Namespaced};
const KindInfo policies{ap::validating_policy_gvk, "validatingadmissionpolicies", "ValidatingAdmissionPolicyList",
                        Scope::Cluster, true};
const KindInfo bindings{ap::validating_binding_gvk, "validatingadmissionpolicybindings",
                        "ValidatingAdmissionPolicyBindingList", Scope::Cluster};

struct Fixture {
  std::shared_ptr<rr::Cluster> cluster = std::make_shared<rr::Cluster>();
  std::shared_ptr<ap::ValidatingPolicyPlugin> plugin;
  std::vector<rr::cel::AuthzAttributes> checks;

  explicit Fixture(bool allow_all = true) {
    for (const auto& k : {namespaces, configmaps, deployments, policies, bindings}) cluster->register_kind(k);
    ap::PolicyOptions options;
    options.authorize = [this, allow_all](const rr::RequestUser*, const rr::cel::AuthzAttributes& a) {
      checks.push_back(a);
      return rr::cel::AuthzDecision{.allowed = allow_all, .reason = allow_all ? "ok" : "nope", .error = ""};
    };
    plugin = std::make_shared<ap::ValidatingPolicyPlugin>(options);
    cluster->set_admission_plugin(plugin);
    cluster->create(namespaces, Json::parse(R"J({"metadata":{"name":"prod","labels":{"env":"prod"}}})J"));
    cluster->create(namespaces, Json::parse(R"J({"metadata":{"name":"dev","labels":{"env":"dev"}}})J"));
  }

  void policy(const std::string& name, Json spec) {
    cluster->create(policies, Json{{"metadata", {{"name", name}}}, {"spec", std::move(spec)}});
  }
  void binding(const std::string& name, Json spec) {
    cluster->create(bindings, Json{{"metadata", {{"name", name}}}, {"spec", std::move(spec)}});
  }
  Json deployment(const std::string& ns, const std::string& name, int replicas, Json labels = Json::object()) {
    return Json{{"apiVersion", "apps/v1"},
                {"kind", "Deployment"},
                {"metadata", {{"name", name}, {"namespace", ns}, {"labels", labels}}},
                {"spec", {{"replicas", replicas}}}};
  }
  // The refusal of a create, or an empty status when it was admitted.
  rr::Status create(const KindInfo& kind, const Json& object, std::vector<std::string>* warnings = nullptr) {
    try {
      rr::WriteOptions opts;
      opts.warnings = warnings;
      cluster->create(kind, object, opts);
      return {};
    } catch (const rr::ApiError& e) {
      return e.status();
    }
  }
};

Json deployment_rules() {
  return Json::parse(R"J({"resourceRules":[{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE","UPDATE"],
                          "resources":["deployments"]}]})J");
}

Json replicas_policy(Json extra = Json::object()) {
  Json spec{{"failurePolicy", "Fail"},
            {"matchConstraints", deployment_rules()},
            {"validations", Json::parse(R"J([{"expression":"object.spec.replicas <= 5"}])J")}};
  spec.update(extra);
  return spec;
}

}  // namespace

TEST_CASE("a Deny binding refuses with the API server's status; an allowed write is stored") {
  Fixture f;
  f.policy("max-replicas", replicas_policy());
  f.binding("max-replicas-binding", Json{{"policyName", "max-replicas"}, {"validationActions", {"Deny"}}});
  CHECK(f.create(deployments, f.deployment("prod", "ok", 5)).code == 0);
  const rr::Status s = f.create(deployments, f.deployment("prod", "web", 7));
  CHECK(s.code == 422);
  CHECK(s.reason == "Invalid");
  CHECK(s.message == "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding "
                     "'max-replicas-binding' denied request: failed expression: object.spec.replicas <= 5");
  CHECK(s.details_kind == "deployments");
  CHECK(s.details_group == "apps");
  CHECK(s.details_name == "web");
  REQUIRE(s.causes.size() == 1);
  CHECK(s.causes[0].message ==
        "ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-binding' denied request: failed "
        "expression: object.spec.replicas <= 5");
  // A kind the rules do not name is not checked.
  CHECK(f.create(configmaps, Json::parse(R"J({"metadata":{"name":"c","namespace":"prod"}})J")).code == 0);
}

TEST_CASE("message, messageExpression and reason decide the text and the code") {
  Fixture f;
  f.policy("p", replicas_policy(Json{
                    {"validations", Json::parse(R"J([{"expression":"object.spec.replicas <= 5","reason":"Forbidden",
                       "messageExpression":"'replicas ' + string(object.spec.replicas) + ' over 5'","message":"m"},
                      {"expression":"object.metadata.name != 'bad'","message":"  bad name  "},
                      {"expression":"object.metadata.name != 'worse'","messageExpression":"1 == 1 ? 'a\nb' : ''",
                       "message":"fallback"}])J")}}));
  f.binding("b", Json{{"policyName", "p"}, {"validationActions", {"Deny"}}});
  rr::Status s = f.create(deployments, f.deployment("prod", "x", 9));
  CHECK(s.code == 403);
  CHECK(s.reason == "Forbidden");
  CHECK(s.message == "deployments.apps \"x\" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied "
                     "request: replicas 9 over 5");
  s = f.create(deployments, f.deployment("prod", "bad", 1));
  CHECK(s.message.ends_with("denied request: bad name"));
  // A messageExpression result with a newline falls back to the message.
  s = f.create(deployments, f.deployment("prod", "worse", 1));
  CHECK(s.message.ends_with("denied request: fallback"));
}

TEST_CASE("Warn and Audit actions admit the write with a warning and an audit annotation") {
  Fixture f;
  f.policy("p", replicas_policy());
  f.binding("warn", Json{{"policyName", "p"}, {"validationActions", {"Warn", "Audit"}}});
  std::vector<std::string> warnings;
  CHECK(f.create(deployments, f.deployment("prod", "x", 9), &warnings).code == 0);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0] == "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'warn': failed expression: "
                       "object.spec.replicas <= 5");
  const auto audit = f.plugin->recent_audit_annotations();
  REQUIRE(audit.size() == 1);
  CHECK(audit[0].key == "validation.policy.admission.k8s.io/validation_failure");
  CHECK(Json::parse(audit[0].value) ==
        Json::parse(R"J([{"message":"failed expression: object.spec.replicas <= 5","policy":"p","binding":"warn",
                         "expressionIndex":0,"validationActions":["Warn","Audit"]}])J"));
}

TEST_CASE("namespace and object selectors, excludeResourceRules and binding matchResources") {
  Fixture f;
  Json spec = replicas_policy();
  spec["matchConstraints"]["excludeResourceRules"] = Json::parse(
      R"J([{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["*"],"resources":["deployments"],
                       "resourceNames":["excluded"]}])J");
  f.policy("p", spec);
  f.binding("b", Json{{"policyName", "p"},
                      {"validationActions", {"Deny"}},
                      {"matchResources", Json::parse(R"J({"namespaceSelector":{"matchLabels":{"env":"prod"}},
                         "objectSelector":{"matchExpressions":[{"key":"skip","operator":"DoesNotExist"}]}})J")}});
  CHECK(f.create(deployments, f.deployment("dev", "a", 9)).code == 0);  // namespace not selected
  CHECK(f.create(deployments, f.deployment("prod", "b", 9, Json{{"skip", "yes"}})).code == 0);
  CHECK(f.create(deployments, f.deployment("prod", "excluded", 9)).code == 0);
  CHECK(f.create(deployments, f.deployment("prod", "c", 9)).code == 422);
}

TEST_CASE("paramKind and paramRef: the param object, not found actions, selectors") {
  Fixture f;
  f.policy("p", replicas_policy(
                    Json{{"paramKind", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}},
                         {"validations", Json::parse(R"J([{"expression":"object.spec.replicas <= int(params.data.max)",
                       "messageExpression":"'at most ' + params.data.max"}])J")}}));
  f.binding("deny-missing", Json{{"policyName", "p"},
                                 {"validationActions", {"Deny"}},
                                 {"paramRef", {{"name", "limits"}, {"parameterNotFoundAction", "Deny"}}}});
  rr::Status s = f.create(deployments, f.deployment("prod", "x", 1));
  CHECK(s.code == 422);
  CHECK(s.message.ends_with("ValidatingAdmissionPolicy 'p' with binding 'deny-missing' denied request: failed to "
                            "configure binding: no params found for policy binding with `Deny` "
                            "parameterNotFoundAction"));
  f.cluster->create(configmaps,
                    Json::parse(R"J({"metadata":{"name":"limits","namespace":"prod"},"data":{"max":"3"}})J"));
  CHECK(f.create(deployments, f.deployment("prod", "y", 3)).code == 0);
  s = f.create(deployments, f.deployment("prod", "z", 4));
  CHECK(s.message.ends_with("denied request: at most 3"));
  // The param is looked up in the request's namespace: none in dev.
  CHECK(f.create(deployments, f.deployment("dev", "w", 1)).message.ends_with("parameterNotFoundAction"));
}

TEST_CASE("a selector paramRef runs the policy once per selected param; Allow admits without params") {
  Fixture f;
  f.policy("p", replicas_policy(
                    Json{{"paramKind", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}},
                         {"validations", Json::parse(R"J([{"expression":"object.spec.replicas <= int(params.data.max)",
                       "messageExpression":"params.metadata.name"}])J")}}));
  f.binding("b", Json{{"policyName", "p"},
                      {"validationActions", {"Deny"}},
                      {"paramRef", Json::parse(R"J({"namespace":"prod","selector":{"matchLabels":{"limit":"true"}},
                                                   "parameterNotFoundAction":"Allow"})J")}});
  CHECK(f.create(deployments, f.deployment("dev", "a", 100)).code == 0);  // none found: allowed
  f.cluster->create(
      configmaps,
      Json::parse(R"J({"metadata":{"name":"big","namespace":"prod","labels":{"limit":"true"}},"data":{"max":"10"}})J"));
  f.cluster->create(
      configmaps,
      Json::parse(
          R"J({"metadata":{"name":"small","namespace":"prod","labels":{"limit":"true"}},"data":{"max":"2"}})J"));
  CHECK(f.create(deployments, f.deployment("dev", "b", 5)).message.ends_with("denied request: small"));
  CHECK(f.create(deployments, f.deployment("dev", "c", 2)).code == 0);
}

TEST_CASE("failurePolicy decides evaluation errors; matchConditions skip the policy") {
  Fixture f;
  f.policy("fail",
           replicas_policy(Json{{"validations", Json::parse(R"J([{"expression":"object.spec.missing > 1"}])J")}}));
  f.binding("b", Json{{"policyName", "fail"}, {"validationActions", {"Deny"}}});
  rr::Status s = f.create(deployments, f.deployment("prod", "a", 1));
  CHECK(s.code == 422);
  CHECK(s.message.ends_with("denied request: expression 'object.spec.missing > 1' resulted in error: no such key: "
                            "missing"));
  f.cluster->remove(bindings, rr::ObjectKey{"", "b"});
  f.policy("ignore",
           replicas_policy(Json{{"failurePolicy", "Ignore"},
                                {"validations", Json::parse(R"J([{"expression":"object.spec.missing > 1"}])J")}}));
  f.binding("b2", Json{{"policyName", "ignore"}, {"validationActions", {"Deny"}}});
  CHECK(f.create(deployments, f.deployment("prod", "b", 1)).code == 0);

  f.policy("conditional",
           replicas_policy(
               Json{{"matchConditions", Json::parse(R"J([{"name":"big","expression":"object.spec.replicas > 2"}])J")},
                    {"validations", Json::parse(R"J([{"expression":"false","message":"no"}])J")}}));
  f.binding("b3", Json{{"policyName", "conditional"}, {"validationActions", {"Deny"}}});
  CHECK(f.create(deployments, f.deployment("prod", "c", 2)).code == 0);
  CHECK(f.create(deployments, f.deployment("prod", "d", 3)).message.ends_with("'b3' denied request: no"));
}

TEST_CASE("an expression that does not compile denies under Fail and shows in the policy's status") {
  Fixture f;
  f.policy("broken",
           replicas_policy(Json{{"validations", Json::parse(R"J([{"expression":"object.spec.replicas <="}])J")}}));
  f.binding("b", Json{{"policyName", "broken"}, {"validationActions", {"Deny"}}});
  const rr::Status s = f.create(deployments, f.deployment("prod", "a", 1));
  CHECK(s.message.find("denied request: compilation error: compilation failed: ERROR: <input>:1:") !=
        std::string::npos);
  // The status the writer keeps: observedGeneration and the expression's warning.
  ap::PolicyStatusWriter writer(f.cluster);
  Json status;
  for (int i = 0; i < 200 && !status.contains("observedGeneration"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    status = f.cluster->get(policies, rr::ObjectKey{"", "broken"}).value("status", Json::object());
  }
  CHECK(status == ap::policy_status(f.cluster->get(policies, rr::ObjectKey{"", "broken"})));
  CHECK(status["observedGeneration"] == 1);
  REQUIRE(status["typeChecking"]["expressionWarnings"].size() == 1);
  CHECK(status["typeChecking"]["expressionWarnings"][0]["warning"].get<std::string>().starts_with(
      "compilation failed: ERROR: <input>:1:"));
  CHECK(status["typeChecking"]["expressionWarnings"][0]["fieldRef"] == "spec.validations[0].expression");
}

TEST_CASE("variables, namespaceObject, request and oldObject") {
  Fixture f;
  f.policy("p", replicas_policy(Json{
                    {"variables", Json::parse(R"J([{"name":"env","expression":"namespaceObject.metadata.labels.env"},
                                                  {"name":"limit","expression":"variables.env == 'prod' ? 10 : 1"}])J")},
                    {"validations", Json::parse(R"J([{"expression":"object.spec.replicas <= variables.limit",
                       "messageExpression":"request.operation + ' ' + request.namespace + ' limit ' + string(variables.limit)"},
                      {"expression":"oldObject == null || object.spec.replicas >= oldObject.spec.replicas",
                       "message":"no scaling down"}])J")}}));
  f.binding("b", Json{{"policyName", "p"}, {"validationActions", {"Deny"}}});
  CHECK(f.create(deployments, f.deployment("prod", "a", 10)).code == 0);
  CHECK(f.create(deployments, f.deployment("dev", "a", 2)).message.ends_with("denied request: CREATE dev limit 1"));
  Json smaller = f.cluster->get(deployments, rr::ObjectKey{"prod", "a"});
  smaller["spec"]["replicas"] = 3;
  try {
    f.cluster->update(deployments, smaller);
    FAIL("update admitted");
  } catch (const rr::ApiError& e) {
    CHECK(std::string(e.status().message).ends_with("denied request: no scaling down"));
  }
}

TEST_CASE("the authorizer variable asks the configured authorizer") {
  Fixture f(false);
  f.policy("p", replicas_policy(Json{{"validations", Json::parse(R"J([{"expression":
      "authorizer.group('apps').resource('deployments').subresource('scale').namespace(object.metadata.namespace).name('x').check('update').allowed()",
      "messageExpression":"'not allowed'"},
      {"expression":"authorizer.requestResource.check('approve').reason() == 'ok'","message":"request resource"},
      {"expression":"authorizer.serviceAccount('prod', 'bot').path('/healthz').check('get').errored()","message":"path"}])J")}}));
  f.binding("b", Json{{"policyName", "p"}, {"validationActions", {"Deny"}}});
  const rr::Status s = f.create(deployments, f.deployment("prod", "a", 1));
  CHECK(s.message.ends_with("denied request: not allowed"));
  REQUIRE(f.checks.size() == 3);
  CHECK(f.checks[0].group == "apps");
  CHECK(f.checks[0].resource == "deployments");
  CHECK(f.checks[0].subresource == "scale");
  CHECK(f.checks[0].namespace_ == "prod");
  CHECK(f.checks[0].name == "x");
  CHECK(f.checks[0].verb == "update");
  CHECK(f.checks[1].resource == "deployments");
  CHECK(f.checks[1].name == "a");
  CHECK(f.checks[1].verb == "approve");
  CHECK_FALSE(f.checks[2].resource_request);
  CHECK(f.checks[2].path == "/healthz");
  CHECK(f.checks[2].user == "system:serviceaccount:prod:bot");
}

TEST_CASE("auditAnnotations are recorded once per key and policy") {
  Fixture f;
  f.policy("p", replicas_policy(Json{{"validations", Json::array()},
                                     {"auditAnnotations", Json::parse(R"J([{"key":"high-replicas","valueExpression":
                       "object.spec.replicas > 3 ? 'replicas ' + string(object.spec.replicas) : null"}])J")}}));
  f.binding("b1", Json{{"policyName", "p"}, {"validationActions", {"Audit"}}});
  f.binding("b2", Json{{"policyName", "p"}, {"validationActions", {"Audit"}}});
  CHECK(f.create(deployments, f.deployment("prod", "a", 2)).code == 0);
  CHECK(f.plugin->recent_audit_annotations().empty());
  CHECK(f.create(deployments, f.deployment("prod", "b", 4)).code == 0);
  const auto audit = f.plugin->recent_audit_annotations();
  REQUIRE(audit.size() == 1);
  CHECK(audit[0].key == "p/high-replicas");
  CHECK(audit[0].value == "replicas 4");
  CHECK(audit[0].name == "b");
}

TEST_CASE("an audit annotation of the wrong type denies under Fail, whatever the binding's actions") {
  Fixture f;
  f.policy("p", replicas_policy(Json{{"validations", Json::array()},
                                     {"auditAnnotations", Json::parse(R"J([{"key":"k","valueExpression":"1"}])J")}}));
  f.binding("audit-only", Json{{"policyName", "p"}, {"validationActions", {"Audit"}}});
  const rr::Status s = f.create(deployments, f.deployment("prod", "a", 1));
  CHECK(s.code == 422);
  CHECK(
      s.message.ends_with("ValidatingAdmissionPolicy 'p' with binding 'audit-only' denied request: valueExpression '1' "
                          "resulted in unsupported return type: int. Return type must be either string or null."));
}

TEST_CASE("the runtime cost limit stops an expensive validation") {
  Fixture f;
  f.policy("p", replicas_policy(Json{{"validations", Json::parse(R"J([{"expression":
      "[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, [1,2,3,4,5,6,7,8,9,10].all(g, true))))))"}])J")}}));
  f.binding("b", Json{{"policyName", "p"}, {"validationActions", {"Deny"}}});
  const rr::Status s = f.create(deployments, f.deployment("prod", "a", 1));
  CHECK(s.message.find("resulted in error: operation cancelled: actual cost limit exceeded") != std::string::npos);
}

TEST_CASE("the chain runs every plugin's validation in order") {
  struct Recorder : rr::AdmissionPlugin {
    std::vector<std::string>* log;
    std::string name;
    Recorder(std::vector<std::string>* l, std::string n) : log(l), name(std::move(n)) {}
    bool mutates(const rr::StoreReader&) override { return true; }
    void mutate(const rr::AdmissionAttributes&) override { log->push_back("m:" + name); }
    void validate(const rr::AdmissionAttributes&) override { log->push_back("v:" + name); }
  };
  std::vector<std::string> log;
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(configmaps);
  cluster->set_admission_plugin(std::make_shared<ap::AdmissionChain>(std::vector<std::shared_ptr<rr::AdmissionPlugin>>{
      std::make_shared<Recorder>(&log, "a"), nullptr, std::make_shared<Recorder>(&log, "b")}));
  cluster->create(configmaps, Json::parse(R"J({"metadata":{"name":"c","namespace":"x"}})J"));
  CHECK(log == std::vector<std::string>{"m:a", "m:b", "v:a", "v:b"});
}
