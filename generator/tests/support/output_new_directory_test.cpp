// write_new_directory: a new directory with every file, or the disk as it was.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scratch_dir.hpp"
#include "support/output.hpp"

using namespace rrgen;
using rrgen::testing::read_file;
using rrgen::testing::ScratchDir;
namespace fs = std::filesystem;

namespace {

// Every path under the scratch directory, hidden ones included, relative and sorted.
std::vector<std::string> listing(const ScratchDir& s) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(s.path)) out.push_back(fs::relative(e.path(), s.path).string());
  std::sort(out.begin(), out.end());
  return out;
}

OutputSet two_files() { return OutputSet{{{"a.txt", "a\n"}, {"sub/b.txt", "b\n"}}}; }

// "x" as a file and "x/y" under it cannot both be written: the second write fails.
OutputSet unwritable() { return OutputSet{{{"a.txt", "a\n"}, {"x", "file\n"}, {"x/y", "under a file\n"}}}; }

}  // namespace

TEST_CASE("new directory: created with its missing parents, every file in place") {
  ScratchDir s;
  Diagnostics diags;
  REQUIRE(write_new_directory(two_files(), (s.path / "p/q/project").string(), diags));
  CHECK(read_file(s.path / "p/q/project/a.txt") == "a\n");
  CHECK(read_file(s.path / "p/q/project/sub/b.txt") == "b\n");
  CHECK(listing(s) == std::vector<std::string>{"p", "p/q", "p/q/project", "p/q/project/a.txt", "p/q/project/sub",
                                                "p/q/project/sub/b.txt"});
}

TEST_CASE("new directory: an existing empty directory is filled in place") {
  ScratchDir s;
  fs::create_directory(s.path / "project");
  Diagnostics diags;
  REQUIRE(write_new_directory(two_files(), (s.path / "project").string(), diags));
  CHECK(listing(s) == std::vector<std::string>{"project", "project/a.txt", "project/sub", "project/sub/b.txt"});
}

TEST_CASE("new directory: a failed write leaves nothing, not even the missing parents") {
  ScratchDir s;
  Diagnostics diags;
  CHECK_FALSE(write_new_directory(unwritable(), (s.path / "p/q/project").string(), diags));
  CHECK(diags.has_errors());
  CHECK(listing(s).empty());
}

TEST_CASE("new directory: a failed write into an existing empty directory leaves it empty") {
  ScratchDir s;
  fs::create_directory(s.path / "project");
  Diagnostics diags;
  CHECK_FALSE(write_new_directory(unwritable(), (s.path / "project").string(), diags));
  CHECK(listing(s) == std::vector<std::string>{"project"});
}

TEST_CASE("new directory: a directory that is not empty, or a file, is refused untouched") {
  ScratchDir s;
  fs::create_directory(s.path / "project");
  std::ofstream(s.path / "project/mine.txt") << "mine\n";
  std::ofstream(s.path / "file") << "file\n";
  Diagnostics diags;
  CHECK_FALSE(write_new_directory(two_files(), (s.path / "project").string(), diags));
  CHECK_FALSE(write_new_directory(two_files(), (s.path / "file").string(), diags));
  CHECK_FALSE(write_new_directory(two_files(), (s.path / "file/project").string(), diags));
  CHECK(listing(s) == std::vector<std::string>{"file", "project", "project/mine.txt"});
  CHECK(read_file(s.path / "file") == "file\n");
}
