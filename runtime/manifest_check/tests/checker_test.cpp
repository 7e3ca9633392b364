#include "rr/manifest_check/checker.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "rr/manifest_check/report.hpp"

using rr::Json;
using namespace rr::manifest_check;

namespace {

Document doc_of(const char* yaml) {
  auto read = read_manifests(yaml, false);
  REQUIRE(read.documents.size() == 1);
  return read.documents[0];
}

Document widget_crd() {
  std::ifstream in(RR_MANIFEST_CHECK_TEST_DATA "/widget_crd.yaml");
  std::ostringstream text;
  text << in.rdbuf();
  auto read = read_manifests(text.str(), false);
  REQUIRE(read.documents.size() == 1);
  return read.documents[0];
}

}  // namespace

TEST_CASE("a valid built-in object is admitted without a namespace or an existing one") {
  Checker checker(false);
  auto out = checker.check("f.yaml", doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {k: v}\n"));
  CHECK_FALSE(out.refusal);
  CHECK(out.kind == "ConfigMap");
  CHECK(out.name == "a");
  out = checker.check("f.yaml", doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: nowhere}\n"));
  CHECK_FALSE(out.refusal);
}

TEST_CASE("a name the API server refuses: 422 with the field path and its message") {
  Checker checker(false);
  auto out = checker.check("f.yaml", doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name}\n"));
  REQUIRE(out.refusal);
  CHECK(out.refusal->code == 422);
  REQUIRE_FALSE(out.refusal->causes.empty());
  CHECK(out.refusal->causes[0].field == "metadata.name");
  const auto lines = refusal_lines(*out.refusal);
  CHECK(lines[0].starts_with("ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\""));
}

TEST_CASE("a kind nobody serves names the missing CRD as kubectl does") {
  Checker checker(false);
  auto out = checker.check("f.yaml", doc_of("apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\n"));
  REQUIRE(out.refusal);
  CHECK(out.refusal->message == "no matches for kind \"Widget\" in version \"example.dev/v1\"");
}

TEST_CASE("a document without kind or not an object is refused, not thrown") {
  Checker checker(false);
  auto out = checker.check("f.yaml", doc_of("apiVersion: v1\nmetadata: {name: a}\n"));
  REQUIRE(out.refusal);
  CHECK(out.refusal->code == 400);
  out = checker.check("f.yaml", doc_of("- a\n- b\n"));
  REQUIRE(out.refusal);
  CHECK(out.refusal->code == 400);
  out = checker.check("f.yaml", doc_of("apiVersion: a/b/c\nkind: X\n"));
  REQUIRE(out.refusal);
  CHECK(out.refusal->code == 400);
}

TEST_CASE("a CRD given serves its kind: schema defaults, CEL rules, unknown fields by --strict") {
  Checker lenient(false);
  auto added = lenient.add_crd("crd.yaml", widget_crd());
  REQUIRE(added);
  CHECK_FALSE(added->refusal);

  auto ok = lenient.check("w.yaml",
                          doc_of("apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec: {max: 3}\n"));
  CHECK_FALSE(ok.refusal);

  auto cel = lenient.check(
      "w.yaml", doc_of("apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec: {min: 5, max: 3}\n"));
  REQUIRE(cel.refusal);
  CHECK(cel.refusal->code == 422);
  REQUIRE(cel.refusal->causes.size() == 1);
  CHECK(cel.refusal->causes[0].field == "spec");
  CHECK(cel.refusal->causes[0].message.find("min must not exceed max") != std::string::npos);

  const char* unknown = "apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec: {max: 3, colour: red}\n";
  auto warned = lenient.check("w.yaml", doc_of(unknown));
  CHECK_FALSE(warned.refusal);
  REQUIRE(warned.warnings.size() == 1);
  CHECK(warned.warnings[0].find("spec.colour") != std::string::npos);

  Checker strict(true);
  REQUIRE(strict.add_crd("crd.yaml", widget_crd()));
  auto refused = strict.check("w.yaml", doc_of(unknown));
  REQUIRE(refused.refusal);
  CHECK(refused.refusal->code == 400);
  CHECK(refused.refusal->message.find("unknown field \"spec.colour\"") != std::string::npos);
}

TEST_CASE("a CRD the API server refuses is reported; a non-CRD document in --crd is skipped") {
  Checker checker(false);
  auto bad = checker.add_crd("crd.yaml", doc_of("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n"
                                                "metadata: {name: wrong.example.dev}\nspec: {group: example.dev}\n"));
  REQUIRE(bad);
  REQUIRE(bad->refusal);
  CHECK(bad->refusal->code == 422);
  CHECK_FALSE(checker.add_crd("crd.yaml", doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")));
}

TEST_CASE("the same CRD given twice: the first stays, the second is a warning") {
  Checker checker(false);
  REQUIRE(checker.add_crd("a.yaml", widget_crd()));
  auto again = checker.add_crd("b.yaml", widget_crd());
  REQUIRE(again);
  CHECK_FALSE(again->refusal);
  REQUIRE(again->warnings.size() == 1);
  CHECK(again->warnings[0] ==
        "a CustomResourceDefinition named \"widgets.example.dev\" was given before: this one is skipped");
}

TEST_CASE("a key the YAML repeats: a warning, or with --strict the decoder's 400") {
  const char* yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n";
  Checker lenient(false);
  auto warned = lenient.check("f.yaml", doc_of(yaml));
  CHECK_FALSE(warned.refusal);
  CHECK(warned.warnings == std::vector<std::string>{"duplicate field \"metadata.name\""});
  Checker strict(true);
  auto refused = strict.check("f.yaml", doc_of(yaml));
  REQUIRE(refused.refusal);
  CHECK(refused.refusal->code == 400);
  CHECK(refused.refusal->message == "strict decoding error: duplicate field \"metadata.name\"");
}

TEST_CASE("add_object stores admission policies: a Deny binding refuses later checks as the API server does") {
  Checker checker(false);
  const Document policy = doc_of(R"y(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: no-mode}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  validations: [{expression: "!has(object.data) || !('mode' in object.data)", message: no mode}]
)y");
  const Document binding = doc_of(R"y(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: no-mode-binding}
spec: {policyName: no-mode, validationActions: [Deny]}
)y");
  CHECK(is_admission_policy(policy.object));
  CHECK(is_admission_policy(binding.object));
  CHECK_FALSE(is_admission_policy(doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n").object));
  const Document with_mode = doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {mode: fast}\n");
  CHECK_FALSE(checker.check("f.yaml", with_mode).refusal);  // no policy yet
  CHECK_FALSE(checker.add_object("p.yaml", policy).refusal);
  CHECK_FALSE(checker.add_object("p.yaml", binding).refusal);
  // The same binding again: kept once, a warning.
  auto again = checker.add_object("q.yaml", binding);
  CHECK_FALSE(again.refusal);
  REQUIRE(again.warnings.size() == 1);
  CHECK(again.warnings[0] ==
        "a ValidatingAdmissionPolicyBinding named \"no-mode-binding\" was given before: this one is skipped");

  auto out = checker.check("f.yaml", with_mode);
  REQUIRE(out.refusal);
  CHECK(out.refusal->code == 422);  // a validation without a reason: Invalid
  CHECK(out.refusal->message == "configmaps \"a\" is forbidden: ValidatingAdmissionPolicy 'no-mode' with binding "
                                "'no-mode-binding' denied request: no mode");
  CHECK_FALSE(checker.check("f.yaml", doc_of("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n")).refusal);
}

TEST_CASE("add_object warns what type checking finds in a policy: a field the matched kind does not have") {
  Checker checker(false);
  const auto added = checker.add_object("p.yaml", doc_of(R"y(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  validations: [{expression: "object.spec.replicsa <= 5"}]
)y"));
  CHECK_FALSE(added.refusal);
  REQUIRE(added.warnings.size() == 1);
  CHECK(added.warnings[0].starts_with(
      "spec.validations[0].expression: apps/v1, Kind=Deployment: ERROR: <input>:1:12: undefined field 'replicsa'"));
  // A correct one: no warning.
  const auto correct = checker.add_object("q.yaml", doc_of(R"y(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-replicas-2}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  validations: [{expression: "object.spec.replicas <= 5"}]
)y"));
  CHECK(correct.warnings.empty());
}
