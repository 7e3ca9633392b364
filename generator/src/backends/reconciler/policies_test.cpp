// <stem>_policies_test.cpp, with `admissionPolicies:`: config/ loaded into an offline cluster with
// the API server's policy plugins (rr::manifest_check::PolicyCheck); the policies are accepted and
// type-check, and each example of the spec is decided as written.
#include <set>

#include "backends/reconciler/wiring_text.hpp"
#include "support/text_template.hpp"

namespace rrgen::wiring {
namespace {

constexpr const char* kHead = R"gen($banner$
// The admission policies of config/policy (the spec's admissionPolicies), loaded with the CRDs
// of config/crd into an offline cluster that enforces them as the API server does: each policy is
// accepted and type-checks, and decides the spec's examples as written.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "rr/manifest_check/policy_check.hpp"

#ifndef RRGEN_CONFIG_DIR
#error "RRGEN_CONFIG_DIR must name the generated config/ folder (add_reconciler() defines it)"
#endif

namespace {

const rr::manifest_check::PolicyCheck& policies() {
  static const rr::manifest_check::PolicyCheck check(RRGEN_CONFIG_DIR);
  return check;
}

}  // namespace

TEST_CASE($name$) {
  const std::vector<std::string> loaded = {
      $policies$};
  CHECK(policies().policies() == loaded);
  CHECK(policies().expression_warnings() == "");
}
)gen";

constexpr const char* kRefused = R"gen(
TEST_CASE($name$) {
  const auto result = policies().create($object$);
  REQUIRE_FALSE(result.allowed);
  CHECK_MESSAGE(result.message.find($message$) != std::string::npos, result.message);
}
)gen";

constexpr const char* kAllowed = R"gen(
TEST_CASE($name$) {
  const auto result = policies().create($object$);
  REQUIRE_MESSAGE(result.allowed, result.message);
}
)gen";

constexpr const char* kMutated = R"gen(
TEST_CASE($name$) {
  const auto result = policies().create($object$);
  REQUIRE_MESSAGE(result.allowed, result.message);
  CHECK(rr::manifest_check::PolicyCheck::difference(result, $expect$) == "");
}
)gen";

}  // namespace

std::string emit_policies_test(const Ctx& c) {
  const std::string suite = c.names.name + " policies: ";
  std::set<std::string> names;  // sorted, as PolicyCheck::policies() lists them
  for (const ResolvedAdmissionPolicy& p : c.spec.policies)
    names.insert(std::string(p.mutating ? "Mutating" : "Validating") + "AdmissionPolicy/" + p.name);
  std::string loaded;
  for (const std::string& name : names) loaded += (loaded.empty() ? "" : ",\n      ") + cpp_string_literal(name);
  Printer p("policies test");
  p.print(kHead, {{"banner", banner(c)},
                  {"name", cpp_string_literal(suite + "each is accepted and type-checks")},
                  {"policies", loaded}});
  for (const ResolvedAdmissionPolicy& policy : c.spec.policies) {
    for (std::size_t i = 0; i < policy.tests.size(); ++i) {
      const ResolvedPolicyTest& t = policy.tests[i];
      const std::string name = suite + policy.name + " example " + std::to_string(i + 1) + ": " +
                               (t.allowed ? t.expect ? "admitted as expected" : "admitted" : "refused");
      TemplateVars vars{{"name", cpp_string_literal(name)}, {"object", cpp_raw_literal(t.object.text())}};
      if (!t.allowed) {
        vars["message"] = cpp_string_literal(t.message);
        p.print(kRefused, vars);
      } else if (t.expect) {
        vars["expect"] = cpp_raw_literal(t.expect->text());
        p.print(kMutated, vars);
      } else {
        p.print(kAllowed, vars);
      }
    }
  }
  return p.take();
}

}  // namespace rrgen::wiring
