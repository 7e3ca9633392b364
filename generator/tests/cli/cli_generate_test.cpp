// `rrgen generate` as a command: which files it writes where, and its usage errors. (What the
// files contain is pinned by the golden cases; spec mistakes by the diagnostics cases.)
#include "cli/cli_generate.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path path;
  Scratch() {
    std::random_device random;
    path = fs::temp_directory_path() / ("rrgen-generate-test-" + std::to_string(random()));
    fs::create_directories(path);
    write("reconciler.yaml",
          "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nname: Mirror\nnamespace: mirror\n"
          "resource: v1/ConfigMap\nreconcilers:\n  - sync: Copy\n");
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  void write(const std::string& name, const std::string& text) const { std::ofstream(path / name) << text; }
  std::string read(const std::string& name) const {
    std::ifstream in(path / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::string spec() const { return (path / "reconciler.yaml").string(); }
};

struct Run {
  int status = 0;
  std::string err;
};

Run generate(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  Run r;
  r.status = rrgen::run_generate(args, out, err);
  r.err = err.str();
  return r;
}

}  // namespace

TEST_CASE("rrgen generate: --out gets the generated files, --scaffold the user's, once") {
  Scratch s;
  const std::string out = (s.path / "gen").string(), project = (s.path / "project").string();
  const Run first = generate({"--spec", s.spec(), "--out", out, "--scaffold", project, "--quiet"});
  REQUIRE(first.status == 0);
  CHECK(fs::exists(s.path / "gen/mirror_reconciler.cpp"));
  CHECK(fs::exists(s.path / "gen/config/rbac/role.yaml"));
  CHECK(fs::exists(s.path / "project/src/mirror_hooks.hpp"));
  CHECK(fs::exists(s.path / "project/tests/copy_test.cpp"));
  CHECK_FALSE(fs::exists(s.path / "project/mirror_reconciler.cpp"));

  s.write("project/src/mirror_hooks.cpp", "// mine now\n");
  REQUIRE(generate({"--spec", s.spec(), "--out", out, "--scaffold", project, "--quiet"}).status == 0);
  CHECK(s.read("project/src/mirror_hooks.cpp") == "// mine now\n");
}

TEST_CASE("rrgen generate: --scaffold without --out writes only the user's files") {
  Scratch s;
  const fs::path cwd = fs::current_path();
  fs::current_path(s.path);  // where --out would default to
  const Run run = generate({"--spec", s.spec(), "--scaffold", "project"});
  fs::current_path(cwd);
  REQUIRE(run.status == 0);
  CHECK(fs::exists(s.path / "project/src/mirror_hooks.hpp"));
  CHECK_FALSE(fs::exists(s.path / "mirror_reconciler.cpp"));
  CHECK_FALSE(fs::exists(s.path / "config"));
  CHECK(run.err.find("rrgen: scaffold: 3 file(s) created") != std::string::npos);
  CHECK(run.err.find("rrgen: reconciler") == std::string::npos);
}

TEST_CASE("rrgen generate: --stem and --namespace override the spec") {
  Scratch s;
  const std::string out = (s.path / "gen").string();
  REQUIRE(generate({"--spec", s.spec(), "--out", out, "--stem", "cm", "--namespace", "acme::ops", "--quiet"}).status == 0);
  const std::string header = s.read("gen/cm_reconciler.hpp");
  CHECK(header.find("namespace acme::ops {") != std::string::npos);
}

TEST_CASE("rrgen generate: usage errors exit 2") {
  Scratch s;
  CHECK(generate({}).status == 2);                                              // no --spec
  CHECK(generate({"--spec", s.spec(), "--stem", "Web-App"}).status == 2);       // not a file stem
  CHECK(generate({"--spec", s.spec(), "--namespace", "a::new"}).status == 2);   // a keyword
  CHECK(generate({"--spec", s.spec(), "--frobnicate"}).status == 2);
  const Run missing = generate({"--spec", s.spec(), "--out"});
  CHECK(missing.status == 2);
  CHECK(missing.err.find("option '--out' needs a value") != std::string::npos);
}

TEST_CASE("rrgen generate: a spec that does not exist is an input error, nothing written") {
  Scratch s;
  const Run run = generate({"--spec", (s.path / "none.yaml").string(), "--out", (s.path / "gen").string()});
  CHECK(run.status == 1);
  CHECK(run.err.find("cannot open") != std::string::npos);
  CHECK_FALSE(fs::exists(s.path / "gen"));
}

// dist/install.yaml renders config/default; an OpenAPI document given for the types is no CRD a
// cluster takes, so it stays out of config/crd (and out of the rendering).
TEST_CASE("rrgen generate: dist/install.yaml, and only CRD files under config/crd") {
  Scratch s;
  s.write("cart.yaml",
          "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nname: Cart\nresource: shop.example.com/v1/Cart\n"
          "reconcilers:\n  - sync: Tally\n");
  s.write("openapi.json",
          R"({"openapi": "3.0.0", "paths": {"/apis/shop.example.com/v1/namespaces/{namespace}/carts": {"get": {
            "x-kubernetes-action": "list",
            "x-kubernetes-group-version-kind": {"group": "shop.example.com", "version": "v1", "kind": "Cart"}}}},
          "components": {"schemas": {"com.example.shop.v1.Cart": {"type": "object",
            "x-kubernetes-group-version-kind": [{"group": "shop.example.com", "kind": "Cart", "version": "v1"}],
            "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
              "metadata": {"$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}},
          "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta": {"type": "object",
            "properties": {"name": {"type": "string"}}}}}})");
  const std::string out = (s.path / "gen").string();
  const Run run = generate(
      {"--spec", (s.path / "cart.yaml").string(), (s.path / "openapi.json").string(), "--out", out, "--quiet"});
  CAPTURE(run.err);
  REQUIRE(run.status == 0);
  CHECK_FALSE(fs::exists(s.path / "gen/config/crd"));
  const std::string install = s.read("gen/dist/install.yaml");
  CHECK(install.find("kind: Deployment\n") != std::string::npos);
  CHECK(install.find("CustomResourceDefinition") == std::string::npos);
  CHECK(s.read("gen/config/default/kustomization.yaml").find("../crd") == std::string::npos);
}

TEST_CASE("rrgen generate: a policy's file: is an input of the depfile") {
  Scratch s;
  s.write("reconciler.yaml",
          "apiVersion: rrgen.dev/v1alpha1\nkind: ReconcilerSpec\nname: Mirror\nnamespace: mirror\n"
          "resource: v1/ConfigMap\nreconcilers:\n  - sync: Copy\nadmissionPolicies:\n  - file: policy/by-hand.yaml\n");
  fs::create_directories(s.path / "policy");
  s.write("policy/by-hand.yaml",
          "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: by-hand}\n"
          "spec: {validations: [{expression: 'true'}]}\n---\n"
          "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\n"
          "metadata: {name: by-hand-binding}\nspec: {policyName: by-hand, validationActions: [Deny]}\n");
  const std::string out = (s.path / "gen").string(), depfile = (s.path / "mirror.d").string();
  const Run run = generate({"--spec", s.spec(), "--out", out, "--depfile", depfile, "--quiet"});
  REQUIRE_MESSAGE(run.status == 0, run.err);
  CHECK(s.read("mirror.d").find((s.path / "policy" / "by-hand.yaml").string()) != std::string::npos);
  CHECK(s.read("gen/config/policy/by-hand.yaml").find("kind: ValidatingAdmissionPolicyBinding") != std::string::npos);
  CHECK(fs::exists(s.path / "gen" / "mirror_policies_test.cpp"));
}
