// The spec's `admissionPolicies:` as read, and the mistakes reported with their positions.
#include "load/spec_policies.hpp"

#include <doctest/doctest.h>

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
