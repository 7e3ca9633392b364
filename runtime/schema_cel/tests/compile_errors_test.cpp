// What CRD creation reports about x-kubernetes-validations: the checks of each entry as written,
// then rules and messageExpressions that do not compile against the schema-typed `self`, in the
// API server's text (apiextensions validation.go and schema/cel/compilation.go).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/schema_cel/cel_rules.hpp"

namespace {

using rr::Json;

constexpr const char* kPath = "spec.validation.openAPIV3Schema.properties[spec]";

// The compile errors of `rules` (a JSON array text) on an object with an integer `replicas`.
std::vector<std::string> compile_errors(const std::string& rules) {
  const Json schema = Json::parse(R"({"type":"object","properties":{"replicas":{"type":"integer"},
      "port":{"x-kubernetes-int-or-string":true},
      "labels":{"type":"object","additionalProperties":{"type":"string"}}},"x-kubernetes-validations":)" +
                                  rules + "}");
  std::vector<rr::FieldError> errors;
  const auto compiled = rr::schema::CelRules::compile(schema, kPath, errors);
  CHECK((compiled == nullptr) == !errors.empty());
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.message);
  return out;
}

std::string prefix(int i, const char* member) {
  return std::string(kPath) + ".x-kubernetes-validations[" + std::to_string(i) + "]." + member;
}

}  // namespace

TEST_CASE("compile errors: a rule selecting an undeclared field, located and rendered as cel-go") {
  CHECK(
      compile_errors(R"([{"rule":"self.replica > 0"}])") ==
      std::vector<std::string>{
          prefix(0, "rule") +
          R"(: Invalid value: apiextensions.ValidationRule{Rule:"self.replica > 0", Message:"", MessageExpression:"", )"
          R"(Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: )"
          "compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n | self.replica > 0\n | ....^"});
}

TEST_CASE("compile errors: syntax, result type, messageExpression, optionalOldSelf") {
  struct Case {
    const char* name;
    const char* rules;
    std::string error_start;  // the error's text up to its detail
    const char* detail;       // how the detail starts
  };
  const Case cases[] = {
      {"syntax error", R"([{"rule":"self.replicas >"}])", prefix(0, "rule") + ": Invalid value: apiextensions.",
       "compilation failed: ERROR: <input>:1:16: Syntax error: "},
      {"not a bool", R"([{"rule":"self.replicas + 1"}])", prefix(0, "rule") + ": Invalid value: apiextensions.",
       "cel expression must evaluate to a bool"},
      {"undeclared variable", R"([{"rule":"other > 1"}])", prefix(0, "rule") + ": Invalid value: apiextensions.",
       "compilation failed: ERROR: <input>:1:1: undeclared reference to 'other'"},
      {"messageExpression does not compile", R"([{"rule":"true","messageExpression":"self.nope"}])",
       prefix(0, "messageExpression") + ": Invalid value: apiextensions.",
       "messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'"},
      {"dyn is not a bool (int-or-string)", R"([{"rule":"self.port"}])",
       prefix(0, "rule") + ": Invalid value: apiextensions.", "cel expression must evaluate to a bool"},
      {"dyn is not a string", R"([{"rule":"true","messageExpression":"self.port"}])",
       prefix(0, "messageExpression") + ": Invalid value: apiextensions.",
       "messageExpression must evaluate to a string"},
      {"messageExpression not a string", R"([{"rule":"true","messageExpression":"self.replicas"}])",
       prefix(0, "messageExpression") + ": Invalid value: apiextensions.",
       "messageExpression must evaluate to a string"},
      {"optionalOldSelf without oldSelf", R"([{"rule":"self.replicas > 0","optionalOldSelf":true}])",
       prefix(0, "optionalOldSelf") + ": Invalid value: true: ", "may not be set if oldSelf is not used in rule"},
      {"the second entry is located", R"([{"rule":"true"},{"rule":"self.x"}])",
       prefix(1, "rule") + ": Invalid value: ", "compilation failed: ERROR: <input>:1:5: undefined field 'x'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const auto errors = compile_errors(c.rules);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].starts_with(c.error_start));
    CHECK(errors[0].find(std::string(": ") + c.detail) != std::string::npos);
  }
}

TEST_CASE("compile errors: entries wrong as written, checked before compiling") {
  struct Case {
    const char* name;
    const char* rules;
    std::string error;
  };
  const Case cases[] = {
      {"empty rule", R"([{"rule":"  "}])", prefix(0, "rule") + ": Required value: rule is not specified"},
      {"blank message", R"([{"rule":"true","message":" "}])",
       prefix(0, "message") + R"(: Invalid value: " ": message must be non-empty if specified)"},
      {"message with a line break", R"([{"rule":"true","message":"a\nb"}])",
       prefix(0, "message") + R"(: Invalid value: "a\nb": message must not contain line breaks)"},
      {"multi-line rule without a message", R"([{"rule":"true &&\ntrue"}])",
       prefix(0, "message") + ": Required value: message must be specified if rule contains line breaks"},
      {"blank messageExpression", R"([{"rule":"true","messageExpression":" "}])",
       prefix(0, "messageExpression") + ": Required value: messageExpression must be non-empty if specified"},
      {"unknown reason", R"([{"rule":"true","reason":"Nope"}])",
       prefix(0, "reason") + R"(: Unsupported value: "Nope": supported values: "FieldValueDuplicate", )"
                             R"("FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired")"},
      {"fieldPath to an undeclared field", R"([{"rule":"true","fieldPath":".replica"}])",
       prefix(0, "fieldPath") + R"(: Invalid value: ".replica": fieldPath must be a valid path)"},
      {"fieldPath not a path", R"([{"rule":"true","fieldPath":"replicas"}])",
       prefix(0, "fieldPath") + R"(: Invalid value: "replicas": fieldPath must be a valid path)"},
      {"fieldPath into a scalar", R"([{"rule":"true","fieldPath":".replicas.x"}])",
       prefix(0, "fieldPath") + R"(: Invalid value: ".replicas.x": fieldPath must be a valid path)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    CHECK(compile_errors(c.rules) == std::vector<std::string>{c.error});
  }
  // Valid paths: a property, a map key in either notation.
  CHECK(compile_errors(R"([{"rule":"true","fieldPath":".labels.app"},{"rule":"true","fieldPath":".labels['a.b/c']"}])")
            .empty());
}

TEST_CASE("compile errors: the resource root declares apiVersion, kind and metadata.name") {
  const Json root = Json::parse(R"({"type":"object","properties":{"spec":{"type":"object"}},
      "x-kubernetes-validations":[{"rule":"self.metadata.name.startsWith('a') && self.kind == 'Widget'"}]})");
  std::vector<rr::FieldError> errors;
  CHECK(rr::schema::CelRules::compile(root, "spec.validation.openAPIV3Schema", errors,
                                      {.resource_root = true, .uncorrelatable_within = {}}) != nullptr);
  CHECK(errors.empty());
  // Not a resource root: metadata is not declared.
  CHECK(rr::schema::CelRules::compile(root, "spec.validation.openAPIV3Schema", errors) == nullptr);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("undefined field 'metadata'") != std::string::npos);
}

TEST_CASE("compile errors: oldSelf below a list whose items do not correlate") {
  const Json item = Json::parse(R"({"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf"}]})");
  const rr::schema::CompileContext in_atomic_list{
      .uncorrelatable_within = "spec.validation.openAPIV3Schema.properties[tags]"};
  std::vector<rr::FieldError> errors;
  CHECK(rr::schema::CelRules::compile(item, "spec.validation.openAPIV3Schema.properties[tags].items", errors,
                                      in_atomic_list) == nullptr);
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "spec.validation.openAPIV3Schema.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "
        R"("self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within )"
        "spec.validation.openAPIV3Schema.properties[tags]");
  // The same rule where items correlate (a map list, or no list at all) compiles.
  errors.clear();
  CHECK(rr::schema::CelRules::compile(item, "spec.validation.openAPIV3Schema.properties[tags].items", errors) !=
        nullptr);
  CHECK(errors.empty());
}
