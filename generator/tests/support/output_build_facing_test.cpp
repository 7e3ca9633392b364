// What write_outputs and write_depfile do for build systems that declare only the files at the
// top of the output directory (add_reconciler, rrgen_add_types): those files name the depfile's
// targets and show any change in the set.
#include "support/output.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "scratch_dir.hpp"

using namespace rrgen;
using rrgen::testing::read_file;
using rrgen::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

OutputSet generated(const std::string& kind_header) {
  return OutputSet{{{"gizmo/v1/gizmo.hpp", kind_header},
                    {"gizmo_types.hpp", "#include \"gizmo/v1/gizmo.hpp\"\n"},
                    {"gizmo_types.cpp", "#include \"gizmo_types.hpp\"\n"},
                    {"config/rbac/role.yaml", "kind: ClusterRole\n"}}};
}

}  // namespace

TEST_CASE("depfile: the files at the top of the output directory are its targets, in order") {
  ScratchDir dir;
  Diagnostics diags;
  const fs::path depfile = dir.path / "gizmo.d";
  const fs::path spec = dir.path / "reconciler.yaml";
  REQUIRE(write_depfile(depfile.string(), generated("v1\n"), dir.path.string(), {spec.string()}, diags));
  const std::string out = dir.path.lexically_normal().string();
  CHECK(read_file(depfile) == out + "/gizmo_types.hpp " + out + "/gizmo_types.cpp : " + spec.string() + "\n");
}

TEST_CASE("depfile: with nothing at the top (plain rrgen types), every file is a target") {
  ScratchDir dir;
  Diagnostics diags;
  const fs::path depfile = dir.path / "types.d";
  const OutputSet nested{{{"a/v1/a.hpp", "a\n"}, {"a/v1/a.cpp", "b\n"}}};
  REQUIRE(write_depfile(depfile.string(), nested, dir.path.string(), {"in.yaml"}, diags));
  const std::string out = dir.path.lexically_normal().string();
  CHECK(read_file(depfile).rfind(out + "/a/v1/a.hpp " + out + "/a/v1/a.cpp : ", 0) == 0);
}

TEST_CASE("write_outputs: a change anywhere touches the top-level files, no change touches nothing") {
  ScratchDir dir;
  Diagnostics diags;
  WriteStats first;
  REQUIRE(write_outputs(generated("v1\n"), dir.path.string(), diags, first));
  CHECK(first.written == 4);

  const auto long_ago = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const char* f : {"gizmo_types.hpp", "gizmo_types.cpp", "gizmo/v1/gizmo.hpp", "config/rbac/role.yaml"})
    fs::last_write_time(dir.path / f, long_ago);

  WriteStats same;
  REQUIRE(write_outputs(generated("v1\n"), dir.path.string(), diags, same));
  CHECK(same.written == 0);
  CHECK(fs::last_write_time(dir.path / "gizmo_types.hpp") == long_ago);
  CHECK(fs::last_write_time(dir.path / "gizmo_types.cpp") == long_ago);

  WriteStats changed;
  REQUIRE(write_outputs(generated("v2\n"), dir.path.string(), diags, changed));
  CHECK(changed.written == 1);
  CHECK(fs::last_write_time(dir.path / "gizmo_types.hpp") > long_ago);
  CHECK(fs::last_write_time(dir.path / "gizmo_types.cpp") > long_ago);
  // Contents stay as they were; only files below the top keep their own times.
  CHECK(read_file(dir.path / "gizmo_types.hpp") == "#include \"gizmo/v1/gizmo.hpp\"\n");
  CHECK(fs::last_write_time(dir.path / "config/rbac/role.yaml") == long_ago);
  CHECK_FALSE(diags.has_errors());
}
