#include "backends/scaffold/init.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

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
  CHECK(paths == std::vector<std::string>{"CMakeLists.txt", "reconciler.yaml", "crds/widgets.yaml", "README.md",
                                          ".gitignore"});

  const std::string cmake = find(files, "CMakeLists.txt")->content;
  CHECK(cmake.find("find_package(rrgen 1.2.3 CONFIG REQUIRED)") != std::string::npos);
  CHECK(cmake.find("add_reconciler(widget\n  SPEC reconciler.yaml\n  CRDS crds/widgets.yaml\n") != std::string::npos);
  CHECK(cmake.find("SOURCES src/widget_hooks.hpp src/widget_hooks.cpp") != std::string::npos);

  const std::string crd = find(files, "crds/widgets.yaml")->content;
  CHECK(crd.find("  name: widgets.example.com\n") != std::string::npos);
  CHECK(crd.find("names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}") !=
        std::string::npos);
  CHECK(crd.find("    - name: v1alpha1\n") != std::string::npos);
  CHECK(crd.find("subresources: {status: {}}") != std::string::npos);

  const std::string spec = find(files, "reconciler.yaml")->content;
  CHECK(spec.find("\nname: Widget\nnamespace: widget\nresource: example.com/v1alpha1/Widget\n") != std::string::npos);
  CHECK(spec.find("  - child: Config") != std::string::npos);
}

TEST_CASE("init: group, version and kind options reach the CRD and the spec") {
  InitOptions o = widget();
  o.group = "shop.example.org";
  o.version = "v2beta1";
  o.kind = "Policy";
  const OutputSet files = scaffold_project(o);
  REQUIRE(find(files, "crds/policies.yaml") != nullptr);
  const std::string crd = find(files, "crds/policies.yaml")->content;
  CHECK(crd.find("  name: policies.shop.example.org\n") != std::string::npos);
  CHECK(crd.find("    - name: v2beta1\n") != std::string::npos);
  CHECK(find(files, "reconciler.yaml")->content.find("resource: shop.example.org/v2beta1/Policy\n") !=
        std::string::npos);
  // The reconciler keeps the project's name: its files are widget_*.
  CHECK(find(files, "reconciler.yaml")->content.find("\nname: Widget\n") != std::string::npos);
  CHECK(find(files, "CMakeLists.txt")->content.find("CRDS crds/policies.yaml") != std::string::npos);
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
    CHECK(f.content.find('$') == std::string::npos);  // no template hole left behind
    CHECK((!f.content.empty() && f.content.back() == '\n'));
  }
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
}

TEST_CASE("rrgen init: a project whose CMakeLists.txt names only files that exist") {
  ScratchDir scratch;
  const fs::path dir = scratch.path / "widget";
  const Run r = init({"widget", "--dir", dir.string()});
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("Created the Widget operator 'widget' in " + dir.string()) == 0);
  for (const char* f : {"CMakeLists.txt", "reconciler.yaml", "crds/widgets.yaml", "README.md", ".gitignore"}) {
    CHECK(fs::is_regular_file(dir / f));
  }
  // Every src/ and tests/ path add_reconciler() is given was scaffolded by rrgen generate.
  const std::string cmake = read_file(dir / "CMakeLists.txt");
  const std::regex path_re(R"((src|tests)/[A-Za-z0-9_.]+)");
  int named = 0;
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), path_re); it != std::sregex_iterator(); ++it) {
    CAPTURE(it->str());
    CHECK(fs::is_regular_file(dir / it->str()));
    ++named;
  }
  CHECK(named == 4);
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
    CHECK(r.out.find("Then fill in src/demo_operator_hooks.cpp;") != std::string::npos);
    CHECK(fs::is_regular_file(dir / "src/demo_operator_hooks.hpp"));
    CHECK(fs::is_regular_file(dir / "tests/greeting_test.cpp"));
    CHECK(read_file(dir / "reconciler.yaml").find("leaderElectionID: demo-operator.example.com\n") !=
          std::string::npos);
  }
}

TEST_CASE("rrgen init: a project that does not generate is not written at all") {
  // A spec init's own templates would never make: the whole project fails in memory.
  InitOptions o = widget();
  OutputSet files = scaffold_project(o);
  for (auto& f : files.files)
    if (f.path == init_spec_path()) f.content += "  - sync: 7\n";
  Diagnostics diags;
  CHECK_FALSE(generate_project(files, o, diags).has_value());
  CHECK(diags.has_errors());
  // The same templates as written generate the hooks and tests too.
  Diagnostics fine;
  const std::optional<OutputSet> project = generate_project(scaffold_project(o), o, fine);
  REQUIRE(project.has_value());
  CHECK(find(*project, "src/widget_hooks.hpp") != nullptr);
  CHECK(find(*project, "tests/config_test.cpp") != nullptr);
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
  CHECK(top == std::vector<std::string>{".gitignore", "CMakeLists.txt", "README.md", "crds", "reconciler.yaml", "src",
                                        "tests"});
}
