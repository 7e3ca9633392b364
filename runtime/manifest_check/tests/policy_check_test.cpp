// PolicyCheck: a generated config/ tree (crd/bases, policy/) loaded offline, its policies' type
// checking, and objects decided by them, as a generated <stem>_policies_test.cpp uses it.
#include "rr/manifest_check/policy_check.hpp"

#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

using namespace rr::manifest_check;
namespace fs = std::filesystem;

namespace {

// A config/ folder of its own under the temporary directory, removed at the end.
struct ConfigDir {
  fs::path root = fs::temp_directory_path() / ("rr_policy_check_" + std::to_string(::getpid()) + "_" +
                                               std::to_string(reinterpret_cast<std::uintptr_t>(this)));
  ConfigDir() {
    fs::create_directories(root / "crd" / "bases");
    fs::create_directories(root / "policy");
    fs::copy_file(RR_MANIFEST_CHECK_TEST_DATA "/widget_crd.yaml", root / "crd" / "bases" / "widgets.yaml");
    write("policy/kustomization.yaml", "resources: [max-limit.yaml]\n");  // not an object: skipped
  }
  ~ConfigDir() { fs::remove_all(root); }
  void write(const std::string& path, const std::string& text) const { std::ofstream(root / path) << text; }
};

const char* kMaxLimit = R"y(apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: max-limit}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [example.dev], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [widgets]}]
  validations:
    - expression: "!has(object.spec.max) || object.spec.max <= 10"
      messageExpression: "'max must be at most 10, not ' + string(object.spec.max)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: max-limit-binding}
spec: {policyName: max-limit, validationActions: [Deny]}
)y";

const char* kLabel = R"y(apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: add-label}
spec:
  matchConstraints:
    resourceRules: [{apiGroups: [example.dev], apiVersions: [v1], operations: [CREATE], resources: [widgets]}]
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration: {expression: 'Object{metadata: Object.metadata{labels: {"team": "a"}}}'}
  reinvocationPolicy: Never
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicyBinding
metadata: {name: add-label-binding}
spec: {policyName: add-label}
)y";

const char* kWidget = "apiVersion: example.dev/v1\nkind: Widget\nmetadata: {name: w}\nspec: {max: ";

}  // namespace

TEST_CASE("policy check: the policies decide created objects, mutations included") {
  ConfigDir dir;
  dir.write("policy/max-limit.yaml", kMaxLimit);
  dir.write("policy/add-label.yaml", kLabel);
  const PolicyCheck check(dir.root.string());
  CHECK(check.policies() ==
        std::vector<std::string>{"MutatingAdmissionPolicy/add-label", "ValidatingAdmissionPolicy/max-limit"});
  CHECK(check.expression_warnings() == "");

  const PolicyCheckResult refused = check.create(std::string(kWidget) + "11}\n");
  CHECK_FALSE(refused.allowed);
  CHECK(refused.message == "widgets.example.dev \"w\" is forbidden: ValidatingAdmissionPolicy 'max-limit' with binding "
                           "'max-limit-binding' denied request: max must be at most 10, not 11");

  const PolicyCheckResult admitted = check.create(std::string(kWidget) + "3}\n");
  REQUIRE_MESSAGE(admitted.allowed, admitted.message);
  CHECK(PolicyCheck::difference(admitted, "metadata: {labels: {team: a}, namespace: default}\nspec: {min: 0}\n") == "");
  CHECK(PolicyCheck::difference(admitted, "metadata: {labels: {team: b}}\n") ==
        ".metadata.labels.team: \"a\", expected \"b\"");
  CHECK(PolicyCheck::difference(admitted, "status: {}\n") == ".status: missing, expected {}");
  CHECK(PolicyCheck::difference(refused, "{}") == "the object was refused: " + refused.message);
  // The CRD's own rules still apply.
  CHECK_FALSE(check.create(std::string(kWidget) + "3, min: 5}\n").allowed);
}

TEST_CASE("policy check: an expression that does not compile is refused; one that names a missing field is warned") {
  ConfigDir dir;
  std::string broken = kMaxLimit;
  broken.replace(broken.find("!has(object.spec.max)"), 21, "object.spec.max +");
  dir.write("policy/max-limit.yaml", broken);
  try {
    PolicyCheck check(dir.root.string());
    FAIL("loaded a policy whose expression does not compile");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("spec.validations[0].expression: Invalid value: \"object.spec.max + || "
                                     "object.spec.max <= 10\": compilation failed: ERROR: <input>:1:19:") !=
          std::string::npos);
  }
  std::string misspelt = kMaxLimit;
  misspelt.replace(misspelt.find("!has(object.spec.max)"), 21, "!has(object.spec.maxx)");
  dir.write("policy/max-limit.yaml", misspelt);
  const PolicyCheck check(dir.root.string());
  const std::string warnings = check.expression_warnings();
  CHECK(warnings.rfind("max-limit: spec.validations[0].expression: example.dev/v1, Kind=Widget: ERROR: <input>:1:",
                       0) == 0);
  CHECK(warnings.find("undefined field 'maxx'") != std::string::npos);
}

TEST_CASE("policy check: a config/ it cannot load is an exception naming the file") {
  CHECK_THROWS_WITH_AS(PolicyCheck("/nonexistent/config"),
                       "/nonexistent/config: not a directory (the generated config/)", std::runtime_error);
  ConfigDir dir;
  dir.write("policy/odd.yaml", "apiVersion: example.dev/v9\nkind: Gadget\nmetadata: {name: g}\n");
  try {
    PolicyCheck check(dir.root.string());
    FAIL("loaded a document of an unknown kind");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()) == (dir.root / "policy" / "odd.yaml").string() +
                                       ": document 1 (Gadget g) was refused: no matches for kind \"Gadget\" in "
                                       "version \"example.dev/v9\"");
  }
  CHECK_THROWS_AS(PolicyCheck(dir.root.string()).create("a: [\n"), std::runtime_error);
}
