// A ValidatingAdmissionPolicy's type checking (status.typeChecking.expressionWarnings) against the
// matched kinds' schemas, with upstream's warning text (plugin/policy/validating typechecking_test.go).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/admission_policy/policy_status.hpp"
#include "type_checking.hpp"

namespace type_checking_test {

using rr::Json;
using rr::KindInfo;
using rr::Scope;
namespace ap = rr::admission_policy;

const std::vector<KindInfo> served_kinds = {
    {{"", "v1", "ConfigMap"}, "configmaps", "ConfigMapList", Scope::Namespaced},
    {{"apps", "v1", "Deployment"}, "deployments", "DeploymentList", Scope::Namespaced},
    {{"example.dev", "v1", "Widget"}, "widgets", "WidgetList", Scope::Namespaced},
};

// Deployments: spec.replicas (int) and metadata.labels; ConfigMaps: data; no schema for Widgets.
std::optional<Json> schema_of(const rr::GroupVersionKind& gvk) {
  if (gvk.kind == "Deployment") {
    return Json::parse(R"J({"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},
      "metadata":{"type":"object","properties":{"name":{"type":"string"},"generateName":{"type":"string"},
                  "labels":{"type":"object","additionalProperties":{"type":"string"}}}},
      "spec":{"type":"object","properties":{"replicas":{"type":"integer"}}}}})J");
  }
  if (gvk.kind == "ConfigMap") {
    return Json::parse(R"J({"type":"object","properties":{
      "data":{"type":"object","additionalProperties":{"type":"string"}}}})J");
  }
  return std::nullopt;
}

Json policy_with(const std::string& rules, const std::string& validations, const std::string& extra = "") {
  return Json::parse(R"J({"metadata":{"name":"p","generation":3},"spec":{)J" + extra +
                     R"J("matchConstraints":{"resourceRules":)J" + rules + R"J(},"validations":)J" + validations +
                     "}}");
}

const std::string deployment_rules = R"J([{"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],
                                      "resources":["deployments"]}])J";

Json warnings_of(const Json& p) {
  return ap::policy_status(p, served_kinds, schema_of)["typeChecking"].value("expressionWarnings", Json::array());
}

}  // namespace type_checking_test

using namespace type_checking_test;

TEST_CASE("a misspelt field of the matched kind is a warning with upstream's text") {
  const Json p = policy_with(deployment_rules, R"J([{"expression":"object.spec.replicsa > 1"}])J");
  const Json w = warnings_of(p);
  REQUIRE(w.size() == 1);
  CHECK(w[0]["fieldRef"] == "spec.validations[0].expression");
  CHECK(w[0]["warning"] == "apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'\n"
                           " | object.spec.replicsa > 1\n"
                           " | ...........^\n");
  CHECK(ap::policy_status(p, served_kinds, schema_of)["observedGeneration"] == 3);
}

TEST_CASE("a policy that type-checks gets no warnings") {
  const Json p = policy_with(deployment_rules, R"J([{"expression":"object.spec.replicas <= 5 && oldObject == null",
      "messageExpression":"'too many: ' + string(object.spec.replicas)"},
     {"expression":"object.metadata.labels['team'] != '' && request.operation == 'CREATE'"}])J");
  CHECK(warnings_of(p) == Json::array());
  CHECK(ap::policy_status(p, served_kinds, schema_of)["typeChecking"] == Json::object());
}

TEST_CASE("type errors and messageExpressions are checked; each kind has its paragraph") {
  const std::string both = R"J([{"apiGroups":["","apps"],"apiVersions":["v1"],"operations":["CREATE"],
                                 "resources":["deployments","configmaps"]}])J";
  const Json p = policy_with(both, R"J([{"expression":"has(object.spec) || object.data.size() > 0"},
     {"expression":"true","messageExpression":"object.kind == 1"}])J");
  const Json w = warnings_of(p);
  REQUIRE(w.size() == 2);
  CHECK(w[0]["fieldRef"] == "spec.validations[0].expression");
  // Sorted by group: the core ConfigMap first; paragraphs joined by a newline.
  CHECK(w[0]["warning"] == "/v1, Kind=ConfigMap: ERROR: <input>:1:11: undefined field 'spec'\n"
                           " | has(object.spec) || object.data.size() > 0\n"
                           " | ..........^\n"
                           "\n"
                           "apps/v1, Kind=Deployment: ERROR: <input>:1:27: undefined field 'data'\n"
                           " | has(object.spec) || object.data.size() > 0\n"
                           " | ..........................^\n");
  CHECK(w[1]["fieldRef"] == "spec.validations[1].messageExpression");
  CHECK(w[1]["warning"].get<std::string>().find("found no matching overload for '_==_' applied to '(string, int)'") !=
        std::string::npos);
}

TEST_CASE("request and namespaceObject have upstream's declared types") {
  const Json p = policy_with(deployment_rules,
                             R"J([{"expression":"request.userInfo.groups.exists(g, g == 'x') && request.dryRun"},
     {"expression":"request.operaton == 'CREATE'"},
     {"expression":"namespaceObject.metadata.labels['env'] == 'prod' && namespaceObject.status.phase != ''"},
     {"expression":"namespaceObject.metadata.uid != ''"}])J");
  const Json w = warnings_of(p);
  REQUIRE(w.size() == 2);
  CHECK(w[0]["fieldRef"] == "spec.validations[1].expression");
  CHECK(w[0]["warning"].get<std::string>().find("undefined field 'operaton'") != std::string::npos);
  // Upstream declares the namespace's uid as `UID`.
  CHECK(w[1]["fieldRef"] == "spec.validations[3].expression");
  CHECK(w[1]["warning"].get<std::string>().find("undefined field 'uid'") != std::string::npos);
}

TEST_CASE("params are typed by the paramKind's schema; variables by their expressions") {
  const Json p = policy_with(deployment_rules,
                             R"J([{"expression":"object.spec.replicas <= params.data.max"},
                             {"expression":"params.dta.max == ''"},
                             {"expression":"variables.team == 1"},
                             {"expression":"variables.nonExisting"},
                             {"expression":"variables.broken == 1"}])J",
                             R"J("paramKind":{"apiVersion":"v1","kind":"ConfigMap"},
                            "variables":[{"name":"team","expression":"object.metadata.labels['team']"},
                                         {"name":"broken","expression":"object.nope"}],)J");
  const Json w = warnings_of(p);
  CAPTURE(w.dump(1));
  // validations[4] has none: a variable that does not type-check is dyn for the expressions
  // (upstream does not report the variable itself either).
  REQUIRE(w.size() == 4);
  // params.data.max is a string: comparing it with an int is refused.
  CHECK(w[0]["fieldRef"] == "spec.validations[0].expression");
  CHECK(w[0]["warning"].get<std::string>().find("found no matching overload for '_<=_' applied to '(int, string)'") !=
        std::string::npos);
  CHECK(w[1]["warning"].get<std::string>().find("undefined field 'dta'") != std::string::npos);
  CHECK(w[2]["warning"].get<std::string>().find("found no matching overload for '_==_' applied to '(string, int)'") !=
        std::string::npos);
  CHECK(w[3]["warning"].get<std::string>().find("undefined field 'nonExisting'") != std::string::npos);
}

TEST_CASE("wildcards, subresources and kinds without a schema are not type-checked") {
  const std::string wildcard_group = R"J([{"apiGroups":["*"],"apiVersions":["v1"],"resources":["deployments"]}])J";
  const std::string wildcard_resource = R"J([{"apiGroups":["apps"],"apiVersions":["v1"],"resources":["*"]}])J";
  const std::string widgets = R"J([{"apiGroups":["example.dev"],"apiVersions":["v1"],"resources":["widgets"]}])J";
  const std::string status = R"J([{"apiGroups":["apps"],"apiVersions":["v1"],"resources":["deployments/status"]}])J";
  for (const auto& rules : {wildcard_group, wildcard_resource, widgets, status}) {
    CAPTURE(rules);
    CHECK(warnings_of(policy_with(rules, R"J([{"expression":"object.spec.replicsa > 1"}])J")) == Json::array());
  }
  CHECK(ap::detail::types_to_check(policy_with(deployment_rules, "[]"), served_kinds) ==
        std::vector<rr::GroupVersionKind>{{"apps", "v1", "Deployment"}});
  // Singular names resolve too (the RESTMapper's); unknown resources do not.
  CHECK(ap::detail::types_to_check(
            policy_with(R"J([{"apiGroups":["apps"],"apiVersions":["v1"],"resources":["deployment","nope"]}])J", "[]"),
            served_kinds)
            .size() == 1);
}

TEST_CASE("an expression that does not compile at all is still reported where type checking did not run") {
  const std::string wildcard = R"J([{"apiGroups":["*"],"apiVersions":["*"],"resources":["*"]}])J";
  const Json w = warnings_of(policy_with(wildcard, R"J([{"expression":"object.spec.replicas <="}])J"));
  REQUIRE(w.size() == 1);
  CHECK(w[0]["warning"].get<std::string>().starts_with("compilation failed: ERROR: <input>:1:"));
  // With a kind it is the kind's paragraph.
  const Json typed = warnings_of(policy_with(deployment_rules, R"J([{"expression":"object.spec.replicas <="}])J"));
  REQUIRE(typed.size() == 1);
  CHECK(typed[0]["warning"].get<std::string>().starts_with("apps/v1, Kind=Deployment: ERROR: <input>:1:"));
}
