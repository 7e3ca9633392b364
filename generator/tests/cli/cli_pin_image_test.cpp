// `rrgen pin-image` on a tree `rrgen generate` wrote: the digest lands in config/manager's
// kustomization and dist/install.yaml, only what changed is written, and bad input writes nothing.
// (That kubectl renders the pinned tree as install.yaml says: tests/kustomize.)
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "command_run.hpp"
#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using rrgen::testing::read_file;
using rrgen::testing::ScratchDir;

namespace {

const std::string kDigest = "sha256:" + std::string(64, 'c');

CommandRun rrgen_run(const std::vector<std::string>& args) { return run_command(rrgen::run_cli, args); }

// A generated tree: `rrgen init shop`'s spec and CRD through `rrgen generate`.
struct Generated {
  ScratchDir dir;
  fs::path out = dir.path / "out";
  Generated() {
    const fs::path project = dir.path / "shop";
    REQUIRE(rrgen_run({"init", "shop", "--dir", project.string()}).status == 0);
    const CommandRun g = rrgen_run({"generate", "--spec", (project / "reconcilers/shop.yaml").string(),
                                    (project / "crds/shops.yaml").string(), "--out", out.string(), "--quiet"});
    CAPTURE(g.err);
    REQUIRE(g.status == 0);
  }
  std::string kustomization() const { return read_file(out / "config/manager/kustomization.yaml"); }
  std::string install() const { return read_file(out / "dist/install.yaml"); }
};

}  // namespace

TEST_CASE("pin-image: the digest in the kustomization and install.yaml, idempotent") {
  Generated g;
  REQUIRE(g.install().find("image: controller:latest\n") != std::string::npos);
  CommandRun r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", kDigest});
  CAPTURE(r.err);
  REQUIRE(r.status == 0);
  CHECK(r.out == "rrgen: pinned the manager image to " + kDigest + ": 2 file(s) written\n");
  CHECK(g.kustomization().ends_with(
      "images:\n- name: controller\n  newName: controller\n  newTag: latest\n  digest: " + kDigest + "\n"));
  // kustomize keeps newTag beside the digest: repo:tag@digest.
  CHECK(g.install().find("image: controller:latest@" + kDigest + "\n") != std::string::npos);
  CHECK(g.install().find("image: controller:latest\n") == std::string::npos);

  const std::string kustomization = g.kustomization(), install = g.install();
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", kDigest});
  CHECK(r.status == 0);
  CHECK(r.out.ends_with(": 0 file(s) written\n"));
  CHECK(g.kustomization() == kustomization);
  CHECK(g.install() == install);

  // Another digest replaces the first.
  const std::string other = "sha256:" + std::string(64, '1');
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", other, "--quiet"});
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(g.kustomization().find(kDigest) == std::string::npos);
  CHECK(g.kustomization().find("digest: " + other) != std::string::npos);
  CHECK(g.install().find("image: controller:latest@" + other + "\n") != std::string::npos);
}

TEST_CASE("pin-image: a malformed digest or a tree rrgen did not write changes nothing") {
  Generated g;
  const std::string kustomization = g.kustomization(), install = g.install();
  for (const std::string& bad : {std::string("sha256:abc"), "sha256:" + std::string(64, 'C'), std::string(64, 'c'),
                                 "md5:" + std::string(32, 'c')}) {
    CAPTURE(bad);
    const CommandRun r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", bad});
    CHECK(r.status == 2);
    CHECK(r.err.starts_with("rrgen: error: --digest '" + bad + "' is not a digest"));
  }
  CHECK(rrgen_run({"pin-image", "--out", g.out.string()}).status == 2);
  CHECK(rrgen_run({"pin-image", "--digest", kDigest}).status == 2);
  CHECK(g.kustomization() == kustomization);
  CHECK(g.install() == install);

  ScratchDir empty;
  CommandRun r = rrgen_run({"pin-image", "--out", empty.path.string(), "--digest", kDigest});
  CHECK(r.status == 1);
  CHECK(r.err.find("error: no config/manager/kustomization.yaml here: pin-image works on a tree rrgen generate wrote "
                   "[pin-image-not-generated]") != std::string::npos);
  CHECK(fs::is_empty(empty.path));

  // A kustomization without the controller entry: an error, and install.yaml stays as it was.
  { std::ofstream(g.out / "config/manager/kustomization.yaml") << "resources:\n- manager.yaml\n"; }
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", kDigest});
  CHECK(r.status == 1);
  CHECK(r.err.find("no images entry named 'controller'") != std::string::npos);
  CHECK(g.install() == install);
  CHECK(g.kustomization() == "resources:\n- manager.yaml\n");
}

TEST_CASE("pin-image: --digest-file reads the digest file rrgen image writes") {
  Generated g;
  const fs::path digest_file = g.dir.path / "digest";
  { std::ofstream(digest_file) << kDigest << "\n"; }
  CommandRun r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest-file", digest_file.string(), "--quiet"});
  CAPTURE(r.err);
  CHECK(r.status == 0);
  CHECK(g.install().find("image: controller:latest@" + kDigest + "\n") != std::string::npos);

  { std::ofstream(digest_file) << "sha256:short\n"; }
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest-file", digest_file.string()});
  CHECK(r.status == 2);
  CHECK(r.err.find("is not a digest") != std::string::npos);
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest-file", (g.dir.path / "none").string()});
  CHECK(r.status == 2);
  CHECK(r.err.find("cannot be read") != std::string::npos);
  r = rrgen_run({"pin-image", "--out", g.out.string(), "--digest", kDigest, "--digest-file", digest_file.string()});
  CHECK(r.status == 2);
}
