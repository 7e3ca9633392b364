// `rrgen init`'s naming rule: one name, typed with '-' or '_', becomes the C++ and CMake
// identifier (snake_case) and the Kubernetes names (kebab-case), and every derived name is valid.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "backends/scaffold/init.hpp"
#include "cli/cli_init.hpp"

using namespace rrgen;

namespace {

const std::vector<std::string> kGoodNames = {"a", "my-operator", "my_operator", "shop2", "demo-operator",
                                             "widget", "a1-b2_c3", std::string(56, 'x')};

InitOptions named(std::string name) {
  InitOptions o;
  o.name = std::move(name);
  o.generator_version = "1.2.3";
  return o;
}

std::string content_of(const OutputSet& set, const std::string& path) {
  for (const auto& f : set.files)
    if (f.path == path) return f.content;
  FAIL("no " << path);
  return "";
}

int init_status(const std::vector<std::string>& args, std::string* err_text = nullptr) {
  std::ostringstream out, err;
  const int status = run_init(args, out, err);
  if (err_text) *err_text = err.str();
  return status;
}

}  // namespace

TEST_CASE("init names: DNS-label-like names and the underscore form are accepted") {
  for (const auto& name : kGoodNames) {
    CAPTURE(name);
    CHECK_FALSE(project_name_error(name).has_value());
    CHECK_FALSE(init_options_error(named(name)).has_value());
  }
  CHECK(project_names("my-operator").identifier == "my_operator");
  CHECK(project_names("my-operator").dns == "my-operator");
  CHECK(project_names("my_operator").identifier == "my_operator");
  CHECK(project_names("my_operator").dns == "my-operator");
  CHECK(project_names("shop2").identifier == "shop2");
  CHECK(project_names("shop2").dns == "shop2");
  CHECK(project_names("a1-b2_c3").identifier == "a1_b2_c3");
  CHECK(project_names("a1-b2_c3").dns == "a1-b2-c3");
}

TEST_CASE("init names: names that cannot be both a DNS label and a C++ identifier are refused") {
  const std::string rule = "a project name starts with a lower-case letter and has only lower-case letters, digits";
  struct Case {
    std::string name, why;
  };
  const std::vector<Case> cases = {
      {"", "the project name is empty"},
      {"Widget", "project name 'Widget' has the upper-case letter 'W'"},
      {"my-Operator", "has the upper-case letter 'O'"},
      {"2fast", "starts with a digit"},
      {"-x", "starts with '-'"},
      {"--x", "starts with '-'"},
      {"_x", "starts with '_'"},
      {"x-", "ends with '-'"},
      {"x_", "ends with '_'"},
      {"a--b", "has '--'"},
      {"a__b", "has '__'"},  // a C++ name reserved for the implementation
      {"a-_b", "has '-_'"},
      {"a.b", "has '.'"},
      {"a/b", "has '/'"},
      {"a b", "has a space"},
      {std::string(64, 'a'), "is longer than 63 characters"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const std::string error = project_name_error(c.name).value_or("");
    CHECK(error.find(c.why) != std::string::npos);
    CHECK(error.find(rule) != std::string::npos);
  }
}

TEST_CASE("init names: a name that is a C++ keyword or reserved name is refused, not renamed") {
  // Decided: refuse. A suffixed namespace (class_) would differ from every other name of the
  // project; the message proposes a name that works.
  for (const char* name : {"class", "new", "namespace", "int", "rr", "std", "linux", "errno"}) {
    CAPTURE(name);
    const std::string error = project_name_error(name).value_or("");
    CHECK(error.find("cannot be the project's C++ namespace") != std::string::npos);
    CHECK(error.find(std::string("choose another name, such as ") + name + "-operator") != std::string::npos);
    CHECK_FALSE(project_name_error(std::string(name) + "-operator").has_value());
  }
  // Only the whole name counts: a keyword inside one is fine.
  CHECK_FALSE(project_name_error("new-app").has_value());
  CHECK_FALSE(project_name_error("class2").has_value());
}

TEST_CASE("init names: every derived Kubernetes name is valid for every accepted name") {
  for (const auto& name : kGoodNames) {
    for (const char* group : {"example.com", "shop.example.org"}) {
      InitOptions o = named(name);
      o.group = group;
      for (const DerivedName& d : init_derived_names(o)) {
        CAPTURE(name);
        CAPTURE(d.what);
        CAPTURE(d.value);
        CHECK(d.valid(d.value));
        CHECK(d.value.find('_') == std::string::npos);
      }
    }
  }
  const std::vector<DerivedName> names = init_derived_names(named("my_operator"));
  auto value_of = [&](const std::string& what) {
    for (const auto& d : names)
      if (d.what == what) return d.value;
    return std::string("(none)");
  };
  CHECK(value_of("the leaderElectionID") == "my-operator.example.com");
  CHECK(value_of("the deploy namespace") == "my-operator-system");
  CHECK(value_of("the app.kubernetes.io/name label") == "my-operator");
  CHECK(value_of("the CRD's name") == "myoperators.example.com");
  CHECK(value_of("the Deployment") == "my-operator-controller-manager");
}

TEST_CASE("init names: a name too long for a derived name is refused with that name") {
  // <name>-system is the longest DNS label made of the name: 56 characters fit, 57 do not.
  CHECK_FALSE(init_options_error(named(std::string(56, 'a'))).has_value());
  const std::string error = init_options_error(named(std::string(57, 'a'))).value_or("");
  CHECK(error.find("makes the deploy namespace '" + std::string(57, 'a') + "-system', which must be a DNS label") !=
        std::string::npos);
  // A long group spoils the CRD's name (<plural>.<group>, 253 at most).
  InitOptions o = named("widget");
  o.group = std::string(60, 'g') + "." + std::string(60, 'g') + "." + std::string(60, 'g') + "." +
            std::string(60, 'g') + ".com";
  CHECK(init_options_error(o).value_or("").find("the CRD's name") != std::string::npos);
}

TEST_CASE("init names: the snake form names C++ and CMake, the kebab form Kubernetes") {
  for (const char* name : {"my-operator", "my_operator"}) {
    CAPTURE(name);
    Diagnostics diags;
    const std::optional<OutputSet> project = generate_project(scaffold_project(named(name)), named(name), diags);
    REQUIRE(project.has_value());
    const OutputSet& files = *project;
    CHECK(content_of(files, "CMakeLists.txt").find("project(my_operator LANGUAGES CXX)") != std::string::npos);
    const std::string kinds = content_of(files, "rrgen/kinds.cmake");
    CHECK(kinds.find("add_reconciler(my_operator\n") != std::string::npos);
    CHECK(kinds.find("SOURCES src/my_operator_hooks.hpp src/my_operator_hooks.cpp") != std::string::npos);
    CHECK(content_of(files, "src/main.cpp").find(".name = \"my-operator\",") != std::string::npos);
    const std::string spec = content_of(files, "reconcilers/my_operator.yaml");
    CHECK(spec.find("\nname: MyOperator\nnamespace: my_operator\nresource: example.com/v1alpha1/MyOperator\n") !=
          std::string::npos);
    CHECK(spec.find("\nleaderElectionID: my-operator.example.com\n") != std::string::npos);
    CHECK(content_of(files, "crds/myoperators.yaml").find("  name: myoperators.example.com\n") != std::string::npos);
    CHECK(content_of(files, "README.md").find(std::string("# ") + name + "\n") == 0);
  }
}

TEST_CASE("rrgen init: a refused name is a usage error that says what is allowed") {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{""}, {"Demo"}, {"9lives"}, {"--x"}, {"-x"}, {"x-"}, {"a.b"}, {"a/b"}, {"a b"},
        {std::string(64, 'a')}, {"class"}}) {
    CAPTURE(args.front());
    std::string err;
    CHECK(init_status(args, &err) == 2);
    CHECK(err.find("rrgen: error: ") == 0);
    CHECK((err.find("a project name starts with a lower-case letter") != std::string::npos ||
           err.find("choose another name") != std::string::npos));
  }
}
