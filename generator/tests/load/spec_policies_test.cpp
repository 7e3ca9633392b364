// The spec's `admissionPolicies:` as read, and the mistakes reported with their positions.
#include "load/spec_policies.hpp"

#include <doctest/doctest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "load/spec_reader.hpp"

using namespace rrgen;

namespace {

struct Read {
  SourceSet sources;
  Diagnostics diags;
  std::optional<ReconcilerSpec> spec;
};

// A valid spec whose `admissionPolicies:` key is on line 6 and its first item on line 7.
std::unique_ptr<Read> read(const std::string& policies) {
  auto r = std::make_unique<Read>();
  r->spec = read_spec_text(r->sources, "reconciler.yaml",
                           "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nresource: Function\n"
                           "reconcilers:\n  - sync: Only\nadmissionPolicies:\n" +
                               policies,
                           r->diags);
  return r;
}

std::string messages(const Read& r) {
  std::string out;
  for (const auto& d : r.diags.all()) out += format(d) + "\n";
  return out;
}

}  // namespace

TEST_CASE(
    "spec policies: a validating policy with its defaults, a mutating one with its mutations in the API's shape") {
  auto r = read(R"y(  - name: replicas-limit
    type: Validating
    validations:
      - {expression: "object.spec.replicas <= 5", message: too many, reason: Invalid}
    tests:
      - object: {apiVersion: v1, kind: Thing, spec: {replicas: 6}}
        allowed: false
        message: too many
  - name: add-label
    type: Mutating
    failurePolicy: Ignore
    matchConditions: [{name: unlabelled, expression: "!has(object.metadata.labels)"}]
    mutations:
      - {patchType: JSONPatch, expression: "[]"}
    tests:
      - object: {apiVersion: v1, kind: Thing}
        expect: {metadata: {labels: {a: b}}}
)y");
  REQUIRE_MESSAGE(r->spec, messages(*r));
  REQUIRE(r->spec->policies.size() == 2);
  const SpecAdmissionPolicy& v = r->spec->policies[0];
  CHECK(v.name == "replicas-limit");
  CHECK_FALSE(v.mutating);
  CHECK(v.failure_policy == "Fail");
  CHECK(v.validation_actions.empty());  // sema makes it [Deny]
  CHECK(v.resources.empty());           // sema makes it the reconciled kind
  CHECK(v.validations.text() == "- expression: object.spec.replicas <= 5\n  message: too many\n  reason: Invalid\n");
  REQUIRE(v.tests.size() == 1);
  CHECK_FALSE(v.tests[0].allowed);
  CHECK(v.tests[0].message == "too many");
  CHECK(v.tests[0].object.text() == "apiVersion: v1\nkind: Thing\nspec:\n  replicas: 6\n");

  const SpecAdmissionPolicy& m = r->spec->policies[1];
  CHECK(m.mutating);
  CHECK(m.failure_policy == "Ignore");
  CHECK(m.mutations.text() == "- patchType: JSONPatch\n  jsonPatch:\n    expression: \"[]\"\n");
  CHECK(m.match_conditions.text() == "- name: unlabelled\n  expression: \"!has(object.metadata.labels)\"\n");
  REQUIRE(m.tests.size() == 1);
  REQUIRE(m.tests[0].expect);
  CHECK(m.tests[0].expect->text() == "metadata:\n  labels:\n    a: b\n");
}

TEST_CASE("spec policies: explicit resources default their operations to CREATE and UPDATE") {
  auto r = read(R"(  - name: no-big-deployments
    type: Validating
    resources: [{group: apps, versions: [v1], resources: [deployments]}]
    validationActions: [Warn, Audit]
    validations: [{expression: "true"}]
)");
  REQUIRE_MESSAGE(r->spec, messages(*r));
  const SpecAdmissionPolicy& p = r->spec->policies.at(0);
  REQUIRE(p.resources.size() == 1);
  CHECK(p.resources[0].group == "apps");
  CHECK(p.resources[0].resources == std::vector<std::string>{"deployments"});
  CHECK(p.resources[0].operations == std::vector<std::string>{"CREATE", "UPDATE"});
  CHECK(p.validation_actions == std::vector<std::string>{"Warn", "Audit"});
}

TEST_CASE("spec policies: each mistake with its position and check id") {
  auto r = read(R"(  - name: Bad_Name
    type: Validating
    mutations: [{patchType: JSONPatch, expression: "[]"}]
    validationActions: [Deny, Warn]
    validations:
      - {expression: "true", reason: Nope, mesage: x}
    tests:
      - {object: {apiVersion: v1, kind: A}, message: refused}
      - {object: {kind: A}, allowed: false, expect: {}}
  - name: m
    type: Mutating
    mutations: [{patchType: Merge}]
  - name: m
    type: Mutating
    mutations: [{patchType: JSONPatch, expression: "[]"}]
  - {name: v, type: Validating, validations: []}
  - {name: x, typ: Validating}
)");
  CHECK_FALSE(r->spec);
  CHECK(messages(*r) ==
        "reconciler.yaml:7:11: error: policy name 'Bad_Name' must be a DNS subdomain (it names the policy): lower-case "
        "letters, digits, '-' and '.' [spec-bad-value]\n"
        "reconciler.yaml:9:5: error: 'mutations' applies to Mutating policies only [spec-unknown-key]\n"
        "reconciler.yaml:10:24: error: validationActions may not contain both 'Deny' and 'Warn' [spec-bad-value]\n"
        "reconciler.yaml:12:44: error: unknown key 'mesage'; did you mean 'message'? [spec-unknown-key]\n"
        "reconciler.yaml:12:38: error: 'reason' must be 'Unauthorized', 'Forbidden', 'Invalid' or "
        "'RequestEntityTooLarge', not 'Nope' [spec-bad-value]\n"
        "reconciler.yaml:14:45: error: 'message' is the refusal's: it needs 'allowed: false' [spec-bad-value]\n"
        "reconciler.yaml:15:18: error: the object needs 'apiVersion' [spec-missing-key]\n"
        "reconciler.yaml:15:45: error: 'expect' applies to Mutating policies only [spec-unknown-key]\n"
        "reconciler.yaml:18:29: error: 'patchType' must be 'ApplyConfiguration' or 'JSONPatch', not 'Merge' "
        "[spec-bad-value]\n"
        "reconciler.yaml:18:17: error: each item of 'mutations' needs 'expression' [spec-missing-key]\n"
        "reconciler.yaml:19:11: error: policy name 'm' is used twice [spec-duplicate-name]\n"
        "reconciler.yaml:16:11: note: first used here\n"
        "reconciler.yaml:22:46: error: a Validating policy needs at least one of 'validations' [spec-missing-key]\n"
        "reconciler.yaml:23:15: error: unknown key 'typ'; did you mean 'type'? [spec-unknown-key]\n"
        "reconciler.yaml:23:5: error: a policy needs a 'type': Validating or Mutating [spec-missing-key]\n");
}

namespace {

// A spec and its policy files in a folder of their own, read with read_spec (file: needs a folder).
struct Folder {
  std::string dir;
  Folder() {
    char tmpl[] = "/tmp/rrgen_spec_policies_XXXXXX";
    dir = ::mkdtemp(tmpl);
  }
  ~Folder() { std::filesystem::remove_all(dir); }
  void write(const std::string& name, const std::string& text) const { std::ofstream(dir + "/" + name) << text; }
  std::unique_ptr<Read> read_spec_with(const std::string& policies) const {
    write("reconciler.yaml",
          "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nresource: Function\nreconcilers:\n  - sync: Only\n"
          "admissionPolicies:\n" +
              policies);
    auto r = std::make_unique<Read>();
    r->spec = read_spec(r->sources, dir + "/reconciler.yaml", r->diags);
    return r;
  }
};

const char* kHandPolicy = R"(apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: by-hand}
spec: {mutations: []}
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: by-hand-binding}
spec: {policyName: by-hand}
)";

}  // namespace

TEST_CASE("spec policies: file: names a policy and its bindings written by hand, relative to the spec") {
  Folder f;
  f.write("hand.yaml", kHandPolicy);
  auto r = f.read_spec_with("  - file: hand.yaml\n    tests: [{object: {apiVersion: v1, kind: A}, expect: {a: 1}}]\n");
  REQUIRE_MESSAGE(r->spec, messages(*r));
  const SpecAdmissionPolicy& p = r->spec->policies.at(0);
  CHECK(p.name == "by-hand");
  CHECK(p.mutating);
  CHECK(p.file == "hand.yaml");
  REQUIRE(p.documents.size() == 2);
  CHECK(p.documents[1].text() ==
        "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicyBinding\nmetadata:\n  name: "
        "by-hand-binding\nspec:\n  policyName: by-hand\n");
  REQUIRE(p.tests.size() == 1);  // expect: applies, the file's policy being a mutating one
}

TEST_CASE("spec policies: a policy file of the wrong kinds or versions, or without a binding, is reported in it") {
  Folder f;
  f.write("versions.yaml",
          "apiVersion: admissionregistration.k8s.io/v1\nkind: MutatingAdmissionPolicy\nmetadata: {name: a}\n---\n"
          "apiVersion: v1\nkind: ConfigMap\n");
  f.write("lonely.yaml",
          "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: b}\n");
  f.write("escape.yaml",
          "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: ../b}\n");
  f.write("other.yaml", std::string(kHandPolicy) + "---\n" +
                            "apiVersion: admissionregistration.k8s.io/v1beta1\nkind: MutatingAdmissionPolicyBinding\n"
                            "metadata: {name: x}\nspec: {policyName: someone-else}\n");
  auto r = f.read_spec_with("  - file: versions.yaml\n  - file: lonely.yaml\n  - file: escape.yaml\n"
                            "  - {file: other.yaml, validations: []}\n  - file: missing.yaml\n");
  CHECK_FALSE(r->spec);
  const std::string d = f.dir + "/";
  CHECK(messages(*r) ==
        d +
            "versions.yaml:1:13: error: MutatingAdmissionPolicy is admissionregistration.k8s.io/v1beta1 in Kubernetes "
            "1.35, not 'admissionregistration.k8s.io/v1' [spec-bad-policy-file]\n" +
            d +
            "versions.yaml:6:7: error: kind 'ConfigMap' is not ValidatingAdmissionPolicy, MutatingAdmissionPolicy "
            "or one of their bindings [spec-bad-policy-file]\n" +
            d +
            "lonely.yaml:1:1: error: the policy has no binding in 'lonely.yaml': without one it applies to nothing "
            "[spec-bad-policy-file]\n" +
            d + "escape.yaml:3:18: error: policy name '../b' must be a DNS subdomain [spec-bad-policy-file]\n" + d +
            "other.yaml:14:20: error: each binding's spec.policyName must be the file's policy, 'by-hand' "
            "[spec-bad-policy-file]\n" +
            d +
            "reconciler.yaml:10:24: error: 'validations' comes from the policy file; with 'file' only 'tests' "
            "applies [spec-unknown-key]\n" +
            d + "reconciler.yaml:11:11: error: cannot open '" + d +
            "missing.yaml': No such file or directory [spec-bad-policy-file]\n");
}

TEST_CASE("spec policies: file: needs a spec read from a file") {
  auto r = read("  - file: hand.yaml\n");
  CHECK_FALSE(r->spec);
  CHECK(messages(*r) == "reconciler.yaml:7:11: error: 'file' needs a spec read from a file (its folder is where the "
                        "path starts) [spec-bad-policy-file]\n");
}
