#include "backends/scaffold/init.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli_create_api.hpp"
#include "cli/cli_init.hpp"
#include "command_run.hpp"
#include "scratch_dir.hpp"

using namespace rrgen;
using rrgen::testing::read_file;
using rrgen::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

InitOptions widget() {
  InitOptions o;
  o.name = "widget";
  o.generator_version = "1.2.3";
  return o;
}

const OutputFile* find(const OutputSet& set, const std::string& path) {
  for (const auto& f : set.files)
    if (f.path == path) return &f;
  return nullptr;
}

using Run = CommandRun;

Run init(const std::vector<std::string>& args) { return run_command(run_init, args); }

}  // namespace

TEST_CASE("init: the project's own files, named after the project and its kind") {
  const OutputSet files = scaffold_project(widget());
  std::vector<std::string> paths;
  for (const auto& f : files.files) paths.push_back(f.path);
  CHECK(paths ==
        std::vector<std::string>{"CMakeLists.txt", "CMakePresets.json", "src/main.cpp", "README.md", ".gitignore"});

  const std::string cmake = find(files, "CMakeLists.txt")->content;
  CHECK(cmake.find("find_package(rrgen 1.2.3 CONFIG REQUIRED)") != std::string::npos);
  CHECK(cmake.find("include(rrgen/kinds.cmake)") != std::string::npos);
  CHECK(cmake.find("target_link_libraries(manager PRIVATE widget_kinds rr::manager rr::local_cluster_mode)") !=
        std::string::npos);
  CHECK(cmake.find("add_custom_target(run\n") != std::string::npos);
  const std::string main = find(files, "src/main.cpp")->content;
  CHECK(main.find("rr::run_operator(argc, argv,") != std::string::npos);
  CHECK(main.find(".leader_election_id = \"widget.example.com\",") != std::string::npos);
  CHECK(main.find("rr::local_cluster_mode(widget_kinds::register_kinds)") != std::string::npos);

  const OutputFile crd = scaffold_crd(init_api(widget()));
  CHECK(crd.path == "crds/widgets.yaml");
  CHECK(crd.content.find("  name: widgets.example.com\n") != std::string::npos);
  CHECK(crd.content.find("names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}") !=
        std::string::npos);
  CHECK(crd.content.find("    - name: v1alpha1\n") != std::string::npos);
  CHECK(crd.content.find("subresources: {status: {}}") != std::string::npos);

  const OutputFile spec = scaffold_spec(init_api(widget()), project_names("widget"));
  CHECK(spec.path == "reconcilers/widget.yaml");
  CHECK(spec.content.find("\nname: Widget\nnamespace: widget\nresource: example.com/v1alpha1/Widget\n") !=
        std::string::npos);
  CHECK(spec.content.find("  - child: Config") != std::string::npos);
  const OutputFile sample = scaffold_sample(init_api(widget()));
  CHECK(sample.path == "samples/widget.yaml");
  CHECK(sample.content.find("apiVersion: example.com/v1alpha1\nkind: Widget\n") != std::string::npos);
}

TEST_CASE("init: CMakePresets.json runs the operator in one command, with rrgen's prefix when CMake needs it") {
  InitOptions o = widget();
  o.prefix_path = "/opt/rr \"x\"";
  const std::string presets = find(scaffold_project(o), "CMakePresets.json")->content;
  CHECK(presets.find("\"version\": 6,") != std::string::npos);  // workflow presets: CMake 3.25
  CHECK(presets.find("\"generator\": \"Ninja\",\n      \"binaryDir\": \"${sourceDir}/build\",") != std::string::npos);
  CHECK(presets.find(
            "\"CMAKE_EXPORT_COMPILE_COMMANDS\": \"ON\",\n        \"CMAKE_PREFIX_PATH\": \"/opt/rr \\\"x\\\"\"\n") !=
        std::string::npos);
  CHECK(presets.find("{\"name\": \"run\", \"configurePreset\": \"dev\", \"targets\": [\"run\"]}") != std::string::npos);
  CHECK(presets.find(
            "\"name\": \"run\",\n      \"displayName\": \"Configure, build the operator, run it with an embedded "
            "local cluster\",\n      \"steps\": [\n        {\"type\": \"configure\", \"name\": \"dev\"},\n        "
            "{\"type\": \"build\", \"name\": \"run\"}\n") != std::string::npos);
  CHECK(presets.find("{\"type\": \"test\", \"name\": \"dev\"}") != std::string::npos);
  // /usr and /usr/local (""), or a prefix rrgen cannot tell (a build tree): no CMAKE_PREFIX_PATH.
  for (const std::optional<std::string>& none : {std::optional<std::string>(""), std::optional<std::string>()}) {
    o.prefix_path = none;
    const std::string plain = find(scaffold_project(o), "CMakePresets.json")->content;
    CHECK(plain.find("CMAKE_PREFIX_PATH") == std::string::npos);
    CHECK(plain.find("\"CMAKE_EXPORT_COMPILE_COMMANDS\": \"ON\"\n      }") != std::string::npos);
  }
}

TEST_CASE("init: group, version and kind options reach the CRD and the spec") {
  InitOptions o = widget();
  o.group = "shop.example.org";
  o.version = "v2beta1";
  o.kind = "WebPolicy";
  const ApiOptions api = init_api(o);
  const OutputFile crd = scaffold_crd(api);
  CHECK(crd.path == "crds/webpolicies.yaml");
  CHECK(crd.content.find("  name: webpolicies.shop.example.org\n") != std::string::npos);
  CHECK(crd.content.find("    - name: v2beta1\n") != std::string::npos);
  // The reconciler is named after the kind: its files are web_policy_*.
  const OutputFile spec = scaffold_spec(api, project_names(o.name));
  CHECK(spec.path == "reconcilers/web_policy.yaml");
  CHECK(spec.content.find("\nname: WebPolicy\nnamespace: web_policy\nresource: shop.example.org/v2beta1/WebPolicy\n") !=
        std::string::npos);
  CHECK(spec.content.find("\nleaderElectionID: widget.shop.example.org\n") != std::string::npos);
}

TEST_CASE("init: every file is LF-only text without trailing spaces, and the same on every run") {
  const OutputSet first = scaffold_project(widget());
  const OutputSet second = scaffold_project(widget());
  REQUIRE(first.files.size() == second.files.size());
  for (std::size_t i = 0; i < first.files.size(); ++i) {
    const OutputFile& f = first.files[i];
    CAPTURE(f.path);
    CHECK(f.content == second.files[i].content);
    CHECK(f.content.find('\r') == std::string::npos);
    CHECK(f.content.find(" \n") == std::string::npos);
    CHECK_FALSE(std::regex_search(f.content, std::regex(R"(\$[a-z_]+\$)")));  // no template hole left behind
    CHECK((!f.content.empty() && f.content.back() == '\n'));
  }
}

TEST_CASE("init: a kind's stem is its snake_case") {
  CHECK(kind_stem("Widget") == "widget");
  CHECK(kind_stem("WebApp") == "web_app");
  CHECK(kind_stem("HTTPRoute") == "http_route");
  CHECK(kind_stem("Shop2") == "shop2");
  CHECK(kind_stem("A") == "a");
}

TEST_CASE("init: plurals as Kubernetes spells them") {
  CHECK(plural_of("Widget") == "widgets");
  CHECK(plural_of("Policy") == "policies");
  CHECK(plural_of("Gateway") == "gateways");
  CHECK(plural_of("Box") == "boxes");
  CHECK(plural_of("Address") == "addresses");
  CHECK(plural_of("Patch") == "patches");
  CHECK(plural_of("WebApp") == "webapps");
}

TEST_CASE("init: options that cannot make a project are refused with the reason") {
  auto error_of = [](InitOptions o) { return init_options_error(o).value_or(""); };
  CHECK(error_of(widget()).empty());
  InitOptions o = widget();
  o.name = "My-App";
  CHECK(error_of(o).find("project name 'My-App' has the upper-case letter 'M'") == 0);
  o = widget();
  o.name = "2fast";
  CHECK_FALSE(error_of(o).empty());
  o = widget();
  o.group = "example";
  CHECK(error_of(o).find("--group 'example' must be a DNS name with at least one dot") == 0);
  o.group = "Example.com";
  CHECK_FALSE(error_of(o).empty());
  o.group = "example..com";
  CHECK_FALSE(error_of(o).empty());
  o = widget();
  for (const char* bad : {"1", "v0", "alpha1", "v1alpha", "v1gamma1", "v1alpha01"}) {
    o.version = bad;
    CAPTURE(bad);
    CHECK(error_of(o).find("--version '") == 0);
  }
  for (const char* good : {"v1", "v12", "v1beta1", "v3alpha2"}) {
    o.version = good;
    CAPTURE(good);
    CHECK(error_of(o).empty());
  }
  o = widget();
  o.kind = "widget";
  CHECK(error_of(o).find("--kind 'widget' must be a PascalCase name") == 0);
  // A kind whose stem would be a C++ keyword or clash with the project's own targets.
  o.kind = "Int";
  CHECK(error_of(o).find("--kind 'Int' makes the C++ namespace 'int'") == 0);
  o.kind = "Manager";
  CHECK(error_of(o).find("--kind 'Manager' makes the CMake target 'manager'") == 0);
}

TEST_CASE("rrgen init: a project whose kinds.cmake names only files that exist") {
  ScratchDir scratch;
  const fs::path dir = scratch.path / "widget";
  const Run r = init({"widget", "--dir", dir.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Created the Widget operator 'widget' in " + dir.string()) == 0);
  // The next steps: one command configures, builds and runs (the test's rrgen runs from a build
  // tree, so they say to set CMAKE_PREFIX_PATH first).
  CHECK(r.out.find("\n  cd " + dir.string() + " && cmake --workflow --preset run\n") != std::string::npos);
  CHECK(r.out.find("set CMAKE_PREFIX_PATH to where rrgen is installed") != std::string::npos);
  for (const char* f : {"CMakeLists.txt", "CMakePresets.json", "src/main.cpp", "rrgen/kinds.cmake", "rrgen/kinds.hpp",
                        "reconcilers/widget.yaml", "crds/widgets.yaml", "samples/widget.yaml", "README.md",
                        ".gitignore", "tests/widget/greeting_test.cpp", "tests/widget/config_test.cpp"}) {
    CAPTURE(f);
    CHECK(fs::is_regular_file(dir / f));
  }
  // Every path add_reconciler() is given was written.
  const std::string cmake = read_file(dir / "rrgen/kinds.cmake");
  const std::regex path_re(R"((src|crds|reconcilers)/[A-Za-z0-9_.]+)");
  int named = 0;
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), path_re); it != std::sregex_iterator(); ++it) {
    CAPTURE(it->str());
    CHECK(fs::is_regular_file(dir / it->str()));
    ++named;
  }
  // The spec, the CRD, the two hook files, src/main.cpp in a comment, and the spec and CRD again as
  // inputs of the project's deploy tree.
  CHECK(named == 7);
  CHECK(cmake.find("rrgen_add_project_config(widget_config INPUTS rrgen/kinds.cmake\n    reconcilers/widget.yaml "
                   "crds/widgets.yaml)") != std::string::npos);
  CHECK(cmake.find("\n# rrgen:kind example.com/v1alpha1/Widget widget\n") != std::string::npos);
  CHECK(cmake.find("tests/widget/*_test.cpp") != std::string::npos);
  const std::string header = read_file(dir / "rrgen/kinds.hpp");
  CHECK(header.find("cluster.register_kind<widget::Widget>();") != std::string::npos);
  CHECK(header.find("return widget::WidgetReconciler(config, hooks);") != std::string::npos);
  // Only the scaffold lands in the project: the build generates the rest into its own tree.
  CHECK_FALSE(fs::exists(dir / "widget_types.hpp"));
  CHECK_FALSE(fs::exists(dir / "config"));
}

TEST_CASE("rrgen init: refuses a directory that is not empty, and bad arguments") {
  ScratchDir scratch;
  std::ofstream(scratch.path / "notes.txt") << "mine\n";
  const Run taken = init({"widget", "--dir", scratch.path.string()});
  CHECK(taken.status == 1);
  CHECK(taken.err.find("is not an empty directory; rrgen init creates new projects only") != std::string::npos);
  CHECK(read_file(scratch.path / "notes.txt") == "mine\n");
  CHECK_FALSE(fs::exists(scratch.path / "CMakeLists.txt"));

  CHECK(init({}).status == 2);
  CHECK(init({"widget", "gadget"}).status == 2);
  CHECK(init({"Widget"}).status == 2);
  CHECK(init({"widget", "--group"}).status == 2);
  CHECK(init({"widget", "--colour", "red"}).status == 2);
  CHECK(init({"--help"}).status == 0);
}

TEST_CASE("rrgen init: names with '-' or '_' make a project (the spec's leaderElectionID a DNS name)") {
  for (const char* name : {"demo_operator", "demo-operator"}) {
    CAPTURE(name);
    ScratchDir scratch;
    const fs::path dir = scratch.path / name;
    const Run r = init({name, "--dir", dir.string()});
    INFO(r.err);
    REQUIRE(r.status == 0);
    CHECK(r.out.find("Then fill in src/demo_operator_hooks.cpp,") != std::string::npos);
    CHECK(fs::is_regular_file(dir / "src/demo_operator_hooks.hpp"));
    CHECK(fs::is_regular_file(dir / "tests/demo_operator/greeting_test.cpp"));
    CHECK(read_file(dir / "reconcilers/demo_operator.yaml").find("leaderElectionID: demo-operator.example.com\n") !=
          std::string::npos);
  }
}

TEST_CASE("rrgen init: a project that does not generate is not written at all") {
  // A spec init's own templates would never make: the whole project fails in memory.
  InitOptions o = widget();
  ProjectKinds none{"widget", {}};
  const std::string bad_crd = "kind: CustomResourceDefinition\n";
  Diagnostics diags;
  CHECK_FALSE(api_files(none, project_names("widget"), init_api(o), false, true, &bad_crd, diags).has_value());
  CHECK(diags.has_errors());
  // The same templates as written generate the hooks and tests too.
  Diagnostics fine;
  const std::optional<OutputSet> project = generate_project(scaffold_project(o), o, fine);
  REQUIRE(project.has_value());
  CHECK(find(*project, "src/widget_hooks.hpp") != nullptr);
  CHECK(find(*project, "tests/widget/config_test.cpp") != nullptr);
}

TEST_CASE("rrgen init: a project that cannot be written leaves nothing behind") {
  ScratchDir scratch;
  std::ofstream(scratch.path / "file.txt") << "mine\n";
  const Run r = init({"widget", "--dir", (scratch.path / "file.txt" / "widget").string()});
  CHECK(r.status == 1);
  CHECK(r.err.find("the project was not created (nothing was written)") != std::string::npos);
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(scratch.path)) left.push_back(e.path().filename().string());
  CHECK(left == std::vector<std::string>{"file.txt"});
}

TEST_CASE("rrgen init: an empty directory (given as DIR/) is filled in place, and no staging directory is left") {
  ScratchDir scratch;
  const Run r = init({"widget", "--dir", scratch.path.string() + "/"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  std::vector<std::string> top;
  for (const auto& e : fs::directory_iterator(scratch.path)) top.push_back(e.path().filename().string());
  std::sort(top.begin(), top.end());
  CHECK(top == std::vector<std::string>{".gitignore", "CMakeLists.txt", "CMakePresets.json", "README.md", "crds",
                                        "reconcilers", "rrgen", "samples", "src", "tests"});
}
