// The API server's validation of ValidatingAdmissionPolicy and its binding (the part the local
// cluster applies), with upstream's field paths and messages.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/admission_policy/policy_validation.hpp"

namespace policy_validation_test {

using rr::Json;
namespace ap = rr::admission_policy;

Json vap(const std::string& spec_members) {
  return Json::parse(R"J({"metadata":{"name":"p"},"spec":{"matchConstraints":{"resourceRules":[
    {"apiGroups":["apps"],"apiVersions":["v1"],"operations":["CREATE"],"resources":["deployments"]}]},)J" +
                     spec_members + "}}");
}

std::vector<std::string> messages(const std::vector<rr::FieldError>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.message);
  return out;
}

}  // namespace policy_validation_test

using namespace policy_validation_test;

TEST_CASE("a policy whose expressions compile is valid") {
  CHECK(ap::validate_validating_policy(vap(R"J("variables":[{"name":"big","expression":"object.spec.replicas > 5"}],
    "matchConditions":[{"name":"c","expression":"request.operation == 'CREATE'"}],
    "validations":[{"expression":"!variables.big","messageExpression":"'too many: ' + string(object.spec.replicas)"},
                   {"expression":"authorizer.group('apps').resource('deployments').check('get').allowed()"}],
    "auditAnnotations":[{"key":"k","valueExpression":"'v'"}])J"))
            .empty());
}

TEST_CASE("an expression that does not compile is refused with upstream's text") {
  const auto errors = ap::validate_validating_policy(
      vap(R"J("validations":[{"expression":"object.spec.replicas <="}])J"));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].path == "spec.validations[0].expression");
  CHECK(errors[0].type == rr::FieldErrorType::Invalid);
  CHECK(errors[0].message.starts_with("spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": "
                                      "compilation failed: ERROR: <input>:1:"));
}

TEST_CASE("result types, names and the other expressions") {
  const auto errors = messages(ap::validate_validating_policy(vap(
      R"J("variables":[{"name":"a-b","expression":"1"},{"name":"","expression":" "}],
          "matchConditions":[{"name":"c","expression":"'x'"},{"name":"c","expression":"true"}],
          "validations":[{"expression":"1 + 1","messageExpression":"1","reason":"Teapot"},{"expression":""}],
          "auditAnnotations":[{"key":"k","valueExpression":"1"},{"key":"k","valueExpression":"'v'"}])J")));
  const std::vector<std::string> want = {
      "spec.matchConditions[0].expression: Invalid value: \"'x'\": must evaluate to bool but got string",
      "spec.matchConditions[1].name: Duplicate value: \"c\"",
      "spec.variables[0].name: Invalid value: \"a-b\": name is not a valid CEL identifier",
      "spec.variables[1].name: Required value: name is not specified",
      "spec.variables[1].expression: Required value: expression is not specified",
      "spec.validations[0].expression: Invalid value: \"1 + 1\": must evaluate to bool but got int",
      "spec.validations[0].messageExpression: Invalid value: \"1\": must evaluate to string but got int",
      "spec.validations[0].reason: Unsupported value: \"Teapot\": supported values: \"Forbidden\", \"Invalid\", "
      "\"RequestEntityTooLarge\", \"Unauthorized\"",
      "spec.validations[1].expression: Required value: expression is not specified",
      "spec.auditAnnotations[0].valueExpression: Invalid value: \"1\": must evaluate to one of [string null_type] but "
      "got int",
      "spec.auditAnnotations[1].key: Duplicate value: \"k\"",
  };
  CHECK(errors == want);
}

TEST_CASE("matchConstraints, validations and enums") {
  CHECK(messages(ap::validate_validating_policy(Json::parse(R"J({"spec":{"failurePolicy":"Sometimes"}})J"))) ==
        std::vector<std::string>{
            "spec.failurePolicy: Unsupported value: \"Sometimes\": supported values: \"Fail\", \"Ignore\"",
            "spec.matchConstraints: Required value",
            "spec.validations: Required value: validations or auditAnnotations must contain at least one item",
            "spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item"});
  CHECK(messages(ap::validate_validating_policy(Json::parse(
            R"J({"spec":{"matchConstraints":{"matchPolicy":"Fuzzy","resourceRules":[{"operations":["PATCH"]}]},
                 "validations":[{"expression":"true"}]}})J"))) ==
        std::vector<std::string>{
            "spec.matchConstraints.matchPolicy: Unsupported value: \"Fuzzy\": supported values: \"Equivalent\", "
            "\"Exact\"",
            "spec.matchConstraints.resourceRules[0].apiGroups: Required value",
            "spec.matchConstraints.resourceRules[0].apiVersions: Required value",
            "spec.matchConstraints.resourceRules[0].resources: Required value",
            "spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: \"PATCH\": supported values: "
            "\"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\""});
  Json many = vap(R"J("validations":[{"expression":"true"}])J");
  for (int i = 0; i < 65; ++i)
    many["spec"]["matchConditions"].push_back({{"name", "c" + std::to_string(i)}, {"expression", "true"}});
  CHECK(messages(ap::validate_validating_policy(many)) ==
        std::vector<std::string>{"spec.matchConditions: Too many: 65: must have at most 64 items"});
}

TEST_CASE("a binding: policyName, validationActions, paramRef") {
  CHECK(ap::validate_validating_binding(Json::parse(R"J({"spec":{"policyName":"p","validationActions":["Deny","Audit"],
                           "paramRef":{"name":"x","parameterNotFoundAction":"Deny"}}})J"))
            .empty());
  CHECK(messages(ap::validate_validating_binding(Json::parse(R"J({"spec":{"paramRef":{}}})J"))) ==
        std::vector<std::string>{"spec.policyName: Required value",
                                 "spec.paramRef: Required value: one of name or selector must be specified",
                                 "spec.validationActions: Required value: at least one validation action is required"});
  CHECK(
      messages(ap::validate_validating_binding(Json::parse(
          R"J({"spec":{"policyName":"p","validationActions":["Deny","Warn","Deny","Log"],
                 "paramRef":{"name":"x","selector":{},"parameterNotFoundAction":"Maybe"}}})J"))) ==
      std::vector<std::string>{
          "spec.paramRef.name: Forbidden: name and selector are mutually exclusive",
          "spec.paramRef.selector: Forbidden: name and selector are mutually exclusive",
          "spec.paramRef.parameterNotFoundAction: Unsupported value: \"Maybe\": supported values: \"Allow\", \"Deny\"",
          "spec.validationActions[2]: Duplicate value: \"Deny\"",
          "spec.validationActions[3]: Unsupported value: \"Log\": supported values: \"Audit\", \"Deny\", \"Warn\"",
          "spec.validationActions: Invalid value: []admissionregistration.ValidationAction{\"Deny\", \"Warn\", "
          "\"Deny\", \"Log\"}: must not contain both Deny and Warn (repeating the same validation failure "
          "information in the API response and headers serves no purpose)"});
}
