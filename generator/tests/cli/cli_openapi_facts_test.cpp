// `rrgen openapi-facts` as a command: what it writes where, all or nothing, and only what changed.
// (What the files hold is tested on the transformation: tests/load/openapi_facts_test.cpp.)
#include "cli/cli.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "scratch_dir.hpp"

namespace fs = std::filesystem;
using rrgen::testing::ScratchDir;

namespace {

std::string doc(const std::string& paths, const std::string& pod_type) {
  return R"({"openapi": "3.0.0", "paths": {)" + paths + R"(}, "components": {"schemas": {
    "io.k8s.api.core.v1.Pod": {"type": "object", "description": "a pod",
      "x-kubernetes-group-version-kind": [{"group": "", "kind": "Pod", "version": "v1"}],
      "properties": {"name": {"type": ")" +
         pod_type + R"("}}}}}})";
}
const std::string kCore = R"("/api/v1/pods": {"get": {"x-kubernetes-action": "list"}})";
const std::string kApps = R"("/apis/apps/v1/deployments": {"get": {"x-kubernetes-action": "list"}})";

struct Result {
  int code;
  std::string out, err;
};
Result run(std::vector<std::string> args) {
  std::ostringstream out, err;
  args.insert(args.begin(), "openapi-facts");
  const int code = rrgen::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

}  // namespace

TEST_CASE("rrgen openapi-facts writes one file per group-version, and only what changed") {
  ScratchDir dir("rrgen-openapi-facts-test-");
  const fs::path core = dir.path / "core.json", apps = dir.path / "apps.json", out = dir.path / "out";
  std::ofstream(core) << doc(kCore, "string");
  std::ofstream(apps) << doc(kApps, "string");

  Result first = run({"--out", out.string(), core.string(), apps.string()});
  CHECK(first.code == 0);
  CHECK(first.err ==
        "rrgen: 2 document(s), 1 definition(s) (1 repeated occurrence(s) written once); 2 file(s) written, 0 "
        "unchanged, 0 removed in " +
            out.string() + "\n");
  CHECK(fs::exists(out / "core-v1.yaml"));
  CHECK(fs::exists(out / "apps-v1.yaml"));
  CHECK(rrgen::testing::read_file(out / "core-v1.yaml").find("a pod") == std::string::npos);

  Result again = run({"--out", out.string(), "--quiet", core.string(), apps.string()});
  CHECK(again.code == 0);
  CHECK(again.err.empty());
  CHECK(run({"--out", out.string(), core.string(), apps.string()}).err.find(" 0 file(s) written, 2 unchanged") !=
        std::string::npos);

  // A conflict: nothing is written, not even into a directory that exists.
  std::ofstream(apps) << doc(kApps, "integer");
  const std::string before = rrgen::testing::read_file(out / "core-v1.yaml");
  Result conflict = run({"--out", out.string(), core.string(), apps.string()});
  CHECK(conflict.code == 1);
  CHECK(conflict.err.find("[openapi-facts-conflict]") != std::string::npos);
  CHECK(conflict.err.find("no files written") != std::string::npos);
  CHECK(rrgen::testing::read_file(out / "core-v1.yaml") == before);
  CHECK_FALSE(fs::exists(dir.path / "fresh"));
  CHECK(run({"--out", (dir.path / "fresh").string(), core.string(), apps.string()}).code == 1);
  CHECK_FALSE(fs::exists(dir.path / "fresh"));

  // A group-version no longer given: its file goes.
  Result fewer = run({"--out", out.string(), core.string()});
  CHECK(fewer.code == 0);
  CHECK(fewer.err.find("1 removed") != std::string::npos);
  CHECK_FALSE(fs::exists(out / "apps-v1.yaml"));
}

TEST_CASE("rrgen openapi-facts: usage errors") {
  CHECK(run({"a.json"}).code == 2);  // --out is required
  CHECK(run({"--out", "x"}).code == 2);
  Result help = run({"--help"});
  CHECK(help.code == 0);
  CHECK(help.out.starts_with("usage: rrgen openapi-facts --out DIR [--proto-root DIR] [--quiet] FILE..."));
}
