// `rrgen create api`: a kind added to a project rrgen init made, and the refusals that leave the
// project as it was (a kind it has, a directory that is no project, a file of the user's).
#include "cli/cli_create_api.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
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

CommandRun create(const std::vector<std::string>& args) { return run_command(run_create, args); }

// Every file under `dir`, with its content: what a refusal must leave unchanged.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).generic_string()] = read_file(e.path());
  }
  return files;
}

struct Project {
  ScratchDir scratch;
  fs::path dir = scratch.path / "shop";
  Project() { REQUIRE(run_command(run_init, {"shop", "--dir", dir.string()}).status == 0); }
  std::vector<std::string> api(const std::string& kind) const {
    return {"api", "--group", "shop.example.com", "--version", "v1", "--kind", kind, "--dir", dir.string()};
  }
};

}  // namespace

TEST_CASE("rrgen create api: adds a kind's files and its reconciler beside the first") {
  Project p;
  const std::string main_before = read_file(p.dir / "src/main.cpp");
  const std::string cmake_before = read_file(p.dir / "CMakeLists.txt");
  const CommandRun r = create(p.api("WebApp"));
  INFO(r.err);
  REQUIRE(r.status == 0);
  for (const char* f :
       {"crds/webapps.yaml", "samples/web_app.yaml", "reconcilers/web_app.yaml", "src/web_app_hooks.hpp",
        "src/web_app_hooks.cpp", "tests/web_app/greeting_test.cpp", "tests/web_app/config_test.cpp"}) {
    CAPTURE(f);
    CHECK(fs::is_regular_file(p.dir / f));
  }
  const std::string kinds = read_file(p.dir / "rrgen/kinds.cmake");
  CHECK(kinds.find("# rrgen:kind example.com/v1alpha1/Shop shop\n") != std::string::npos);
  CHECK(kinds.find("# rrgen:kind shop.example.com/v1/WebApp web_app\n") != std::string::npos);
  CHECK(kinds.find("target_link_libraries(shop_kinds INTERFACE shop web_app)") != std::string::npos);
  const std::string header = read_file(p.dir / "rrgen/kinds.hpp");
  CHECK(header.find("cluster.register_kind<web_app::WebApp>();") != std::string::npos);
  CHECK(header.find("cluster.register_kind<shop::Shop>();") != std::string::npos);
  // The user's files are not touched.
  CHECK(read_file(p.dir / "src/main.cpp") == main_before);
  CHECK(read_file(p.dir / "CMakeLists.txt") == cmake_before);
  CHECK(r.out.find("created   src/web_app_hooks.cpp") != std::string::npos);
}

TEST_CASE("rrgen create api: a kind the project has is refused, and nothing changes") {
  Project p;
  REQUIRE(create(p.api("Backup")).status == 0);
  const auto before = tree(p.dir);
  const CommandRun again = create(p.api("Backup"));
  CHECK(again.status == 1);
  CHECK(again.err.find("error: the project has the kind shop.example.com/v1/Backup already") != std::string::npos);
  CHECK(again.err.find("[kind-exists]") != std::string::npos);
  CHECK(tree(p.dir) == before);
  // init's own kind too, and --resource alone for a CRD that is there.
  const CommandRun first = create(
      {"api", "--group", "example.com", "--version", "v1alpha1", "--kind", "Shop", "--dir", p.dir.string()});
  CHECK(first.status == 1);
  CHECK(first.err.find("[kind-exists]") != std::string::npos);
  std::vector<std::string> resource_only = p.api("Backup");
  resource_only.push_back("--resource");
  CHECK(create(resource_only).err.find("the project has crds/backups.yaml already") != std::string::npos);
  CHECK(tree(p.dir) == before);
}

TEST_CASE("rrgen create api: a file of the user's in the way is refused, and nothing is written") {
  Project p;
  fs::create_directories(p.dir / "tests/backup");
  std::ofstream(p.dir / "tests/backup/config_test.cpp") << "// mine\n";
  const auto before = tree(p.dir);
  const CommandRun r = create(p.api("Backup"));
  CHECK(r.status == 1);
  CHECK(r.err.find("tests/backup/config_test.cpp exists already and is yours") != std::string::npos);
  CHECK(r.err.find("[file-exists]") != std::string::npos);
  CHECK(tree(p.dir) == before);
}

TEST_CASE("rrgen create api: --resource writes the CRD, --controller then adds its reconciler") {
  Project p;
  std::vector<std::string> resource = p.api("Backup");
  resource.push_back("--resource");
  REQUIRE(create(resource).status == 0);
  CHECK(fs::is_regular_file(p.dir / "crds/backups.yaml"));
  CHECK_FALSE(fs::exists(p.dir / "reconcilers/backup.yaml"));
  CHECK(read_file(p.dir / "rrgen/kinds.cmake").find("Backup") == std::string::npos);
  std::vector<std::string> controller = p.api("Backup");
  controller.push_back("--controller");
  const CommandRun r = create(controller);
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(fs::is_regular_file(p.dir / "reconcilers/backup.yaml"));
  CHECK(read_file(p.dir / "rrgen/kinds.cmake").find("add_reconciler(backup\n") != std::string::npos);
  // --controller alone without the CRD says what is missing.
  std::vector<std::string> no_crd = p.api("Restore");
  no_crd.push_back("--controller");
  const CommandRun missing = create(no_crd);
  CHECK(missing.status == 1);
  CHECK(missing.err.find("[missing-crd]") != std::string::npos);
}

TEST_CASE("rrgen create api: outside a project, and bad arguments") {
  ScratchDir scratch;
  const CommandRun r = create(
      {"api", "--group", "example.com", "--version", "v1", "--kind", "Backup", "--dir", scratch.path.string()});
  CHECK(r.status == 1);
  CHECK(r.err.find("is not a project rrgen init made: it has no rrgen/kinds.cmake") != std::string::npos);
  CHECK(r.err.find("[not-a-project]") != std::string::npos);
  CHECK(fs::is_empty(scratch.path));
  // A kinds.cmake rrgen did not write.
  fs::create_directories(scratch.path / "rrgen");
  std::ofstream(scratch.path / "rrgen/kinds.cmake") << "add_subdirectory(x)\n";
  const CommandRun foreign = create(
      {"api", "--group", "example.com", "--version", "v1", "--kind", "Backup", "--dir", scratch.path.string()});
  CHECK(foreign.status == 1);
  CHECK(foreign.err.find("has no '# rrgen:project NAME' line") != std::string::npos);
  // Kind lines rrgen would not write are refused, not copied into CMake and C++.
  std::ofstream(scratch.path / "rrgen/kinds.cmake")
      << "# rrgen:project shop\n# rrgen:kind example.com/v1/Widget ../x\n";
  const CommandRun tampered = create(
      {"api", "--group", "example.com", "--version", "v1", "--kind", "Backup", "--dir", scratch.path.string()});
  CHECK(tampered.status == 1);
  CHECK(tampered.err.find("line 2: the stem is not the kind's snake_case") != std::string::npos);

  CHECK(create({}).status == 2);
  CHECK(create({"apis"}).status == 2);
  CHECK(create({"api", "--group", "example.com", "--version", "v1"}).status == 2);  // no --kind
  Project p;
  CHECK(create(p.api("backup")).status == 2);
  CHECK(create(p.api("Int")).err.find("makes the C++ namespace 'int'") != std::string::npos);
  CHECK(create({"api", "--help"}).status == 0);
}
