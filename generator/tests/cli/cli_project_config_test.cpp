// `rrgen project-config`: a project of several kinds deploys as one operator (every CRD, one
// manager role with every kind's rules, one Deployment), and the kinds must agree on what that
// one manager has once.
#include "cli/cli_project_config.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
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

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// `rrgen init shop` and a second kind, WebApp, whose first step also tracks Secrets.
struct TwoKinds {
  ScratchDir scratch;
  fs::path dir = scratch.path / "shop";
  fs::path out = scratch.path / "deploy";
  TwoKinds() {
    REQUIRE(run_command(run_init, {"shop", "--dir", dir.string()}).status == 0);
    REQUIRE(run_command(run_create, {"api", "--group", "shop.example.com", "--version", "v1", "--kind", "WebApp",
                                     "--dir", dir.string()})
                .status == 0);
    std::string spec = read_file(dir / "reconcilers/web_app.yaml");
    const std::string step = "  - sync: Greeting";
    REQUIRE(spec.find(step) != std::string::npos);
    spec.replace(spec.find(step), step.size(), "  - sync: Greeting\n    tracks: [v1/Secret]");
    std::ofstream(dir / "reconcilers/web_app.yaml", std::ios::trunc) << spec;
  }
  CommandRun run() const { return run_command(run_project_config, {"--dir", dir.string(), "--out", out.string()}); }
};

}  // namespace

TEST_CASE("rrgen project-config: every kind in one operator") {
  TwoKinds p;
  const CommandRun r = p.run();
  INFO(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.find("rrgen: project shop (2 kind(s))") != std::string::npos);

  // One manager role holding both kinds' rules, bound to the project's one ServiceAccount.
  const std::string role = read_file(p.out / "config/rbac/role.yaml");
  CHECK(role.find("name: shop-manager-role") != std::string::npos);
  CHECK(role.find("- shops\n") != std::string::npos);
  CHECK(role.find("- webapps\n") != std::string::npos);
  CHECK(role.find("- secrets\n") != std::string::npos);  // only WebApp's spec tracks Secrets
  CHECK(count(role, "kind: ClusterRole\n") == 1);
  CHECK(read_file(p.out / "config/rbac/role_binding.yaml").find("name: shop-controller-manager") != std::string::npos);

  // Both CRDs; one Namespace and one Deployment.
  const std::string install = read_file(p.out / "dist/install.yaml");
  CHECK(install.find("name: shops.example.com") != std::string::npos);
  CHECK(install.find("name: webapps.shop.example.com") != std::string::npos);
  CHECK(count(install, "kind: Deployment\n") == 1);
  CHECK(count(install, "kind: Namespace\n") == 1);
  CHECK(install.find("name: shop-controller-manager\n  namespace: shop-system") != std::string::npos);
  CHECK(install.find("web-app-system") == std::string::npos);

  // Again: nothing changes on disk.
  const CommandRun again = p.run();
  CHECK(again.status == 0);
  CHECK(again.err.find("0 file(s) written") != std::string::npos);
}

TEST_CASE("rrgen project-config: kinds that disagree on the manager are refused, and nothing is written") {
  TwoKinds p;
  std::ofstream(p.dir / "reconcilers/web_app.yaml", std::ios::app) << "image: registry.example.com/web:1\n";
  const CommandRun r = p.run();
  CHECK(r.status == 1);
  CHECK(r.err.find("web_app.yaml:") != std::string::npos);
  CHECK(r.err.find("error: the reconciler WebApp has image 'registry.example.com/web:1', the reconciler Shop") !=
        std::string::npos);
  CHECK(r.err.find("[project-deploy-mismatch]") != std::string::npos);
  CHECK_FALSE(fs::exists(p.out));
}

TEST_CASE("rrgen project-config: a directory that is no project, and usage errors") {
  ScratchDir scratch;
  const CommandRun r = run_command(run_project_config, {"--dir", scratch.path.string(), "--out", "x"});
  CHECK(r.status == 1);
  CHECK(r.err.find("[not-a-project]") != std::string::npos);
  CHECK(run_command(run_project_config, {"--dir", scratch.path.string()}).status == 2);
}
