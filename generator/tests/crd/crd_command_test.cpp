// `rrgen crd` on headers (data/): the CRDs it writes (golden/<case>/), the round trip through
// rrgen types, the errors it reports at the member, and its command line.
#include "cli/cli_crd.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_types.hpp"
#include "command_run.hpp"
#include "scratch_dir.hpp"

namespace {

namespace fs = std::filesystem;
using rrgen::testing::read_file;
using rrgen::testing::ScratchDir;

const fs::path kSource = RRGEN_SOURCE_DIR;
const fs::path kData = kSource / "generator/tests/crd/data";
const fs::path kGolden = kSource / "generator/tests/crd/golden";
const std::string kRuntimeInclude = (kSource / "runtime/core/include").string();

CommandRun crd(std::vector<std::string> args) { return run_command(rrgen::run_crd, args); }
CommandRun types(std::vector<std::string> args) { return run_command(rrgen::run_types, args); }

// The files of a tree by relative path, without the output manifest.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  if (!fs::exists(dir)) return files;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() == ".rrgen-manifest") continue;
    files[fs::relative(e.path(), dir).generic_string()] = read_file(e.path());
  }
  return files;
}

// What compiles of generated code: the lines without the comments (descriptions become
// comments, and the header names the file it was generated from) and without blank lines.
std::string code_of(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos || line.compare(start, 2, "//") == 0) continue;
    out += line + "\n";
  }
  return out;
}

// The first line where two texts differ, for a failure message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream ia(a), ib(b);
  std::string la, lb;
  for (int n = 1;; ++n) {
    const bool ha = static_cast<bool>(std::getline(ia, la)), hb = static_cast<bool>(std::getline(ib, lb));
    if (!ha && !hb) return "(equal)";
    if (!ha || !hb || la != lb)
      return "line " + std::to_string(n) + ": '" + (ha ? la : "<end>") + "' vs '" + (hb ? lb : "<end>") + "'";
  }
}

bool updating() {
  const char* v = std::getenv("RRGEN_UPDATE_GOLDEN");
  return v && std::string(v) == "1";
}

// The CRDs in `dir` against golden/<name>/ (or, with RRGEN_UPDATE_GOLDEN=1, written there).
void check_golden(const std::string& name, const fs::path& dir) {
  const std::map<std::string, std::string> got = tree(dir);
  const fs::path expected_dir = kGolden / name;
  if (updating()) {
    fs::remove_all(expected_dir);
    fs::create_directories(expected_dir);
    for (const auto& [path, content] : got) std::ofstream(expected_dir / path, std::ios::binary) << content;
    MESSAGE("rewrote " << expected_dir.string());
    return;
  }
  const std::map<std::string, std::string> expected = tree(expected_dir);
  REQUIRE_MESSAGE(!expected.empty(),
                  "no " << expected_dir.string() << "; write it with cmake --build <dir> --target update_golden_crd");
  for (const auto& entry : expected) {
    const std::string& path = entry.first;
    const std::string& content = entry.second;
    CAPTURE(path);
    REQUIRE_MESSAGE(got.count(path), "rrgen crd did not write " << path);
    CHECK_MESSAGE(got.at(path) == content, "differs from golden/"
                                               << name << "/" << path << ": " << first_difference(got.at(path), content)
                                               << " (if intended, run the update_golden_crd target)");
  }
  CHECK(got.size() == expected.size());
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& [path, content] : tree(dir)) out.push_back((dir / path).string());
  return out;
}

struct RoundTrip {
  const char* name;    // golden/<name>/
  const char* header;  // data/<header>
  const char* group;
  std::vector<std::string> extra;  // more rrgen crd arguments
  fs::path reference;              // the CRD the header was written from ("" = none here)
};

// rrgen crd on the header, its golden CRDs, rrgen types reading them without a diagnostic (the
// CRD loader's structural checks), and the code generated from them equal to the code generated
// from the reference CRD: the same members, types, codec, validation and defaults, so the same
// JSON for the same values.
void round_trip(const RoundTrip& c) {
  CAPTURE(c.name);
  ScratchDir scratch("rrgen-crd-");
  const fs::path crds = scratch.path / "crds";
  std::vector<std::string> args{"--group", c.group, "-I",          kRuntimeInclude,
                                "--quiet", "--out", crds.string(), (kData / c.header).string()};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  const CommandRun made = crd(args);
  INFO(made.err);
  REQUIRE(made.status == 0);
  CHECK(made.err.empty());
  check_golden(c.name, crds);

  std::vector<std::string> ours = files_in(crds);
  ours.insert(ours.begin(), {"--quiet", "--out", (scratch.path / "ours").string()});
  const CommandRun typed = types(ours);
  INFO(typed.err);
  REQUIRE(typed.status == 0);
  CHECK(typed.err.empty());
  if (c.reference.empty()) return;
  if (!fs::exists(c.reference)) {
    MESSAGE("skipped the comparison with " << c.reference.string() << " (not found)");
    return;
  }
  const CommandRun reference = types({"--quiet", "--out", (scratch.path / "reference").string(), c.reference.string()});
  REQUIRE(reference.status == 0);
  const std::map<std::string, std::string> a = tree(scratch.path / "ours"), b = tree(scratch.path / "reference");
  REQUIRE(!b.empty());
  for (const auto& entry : b) {
    const std::string& path = entry.first;
    const std::string& content = entry.second;
    CAPTURE(path);
    REQUIRE_MESSAGE(a.count(path), "rrgen types did not write " << path << " from rrgen crd's CRD");
    CHECK_MESSAGE(code_of(a.at(path)) == code_of(content),
                  "generated code differs: " << first_difference(code_of(a.at(path)), code_of(content)));
  }
  CHECK(a.size() == b.size());
}

const fs::path kCorpus = RRGEN_CORPUS_DIR;

// The 1-based line and column of `needle` in `file` (the first occurrence).
std::string position_of(const fs::path& file, const std::string& needle) {
  std::istringstream in(read_file(file));
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    if (const std::size_t at = line.find(needle); at != std::string::npos)
      return ":" + std::to_string(n) + ":" + std::to_string(at + 1) + ": error: ";
  }
  FAIL("no '" << needle << "' in " << file.string());
  return {};
}

}  // namespace

TEST_CASE("rrgen crd golden: the webapp sample's WebApp (two versions) round-trips through rrgen types") {
  round_trip({"webapp",
              "webapp_types.hpp",
              "web.example.rrgen.dev",
              {},
              kSource / "samples/webapp-operator/crds/webapps.yaml"});
}

TEST_CASE("rrgen crd golden: kopium's MultiVersion (corpus) round-trips through rrgen types") {
  round_trip({"multi_version",
              "multi_version.hpp",
              "clux.dev",
              {},
              kCorpus.empty() ? fs::path() : kCorpus / "crds/kopium-tests/mv-crd.yaml"});
}

TEST_CASE("rrgen crd golden: controller-tools' Enum (corpus) round-trips through rrgen types") {
  round_trip(
      {"enum",
       "enum_kind.hpp",
       "testdata.kubebuilder.io",
       {"--version", "v1"},
       kCorpus.empty() ? fs::path() : kCorpus / "crds/controller-tools-testdata/testdata.kubebuilder.io_enums.yaml"});
}

TEST_CASE("rrgen crd golden: external-secrets' UUID (corpus) round-trips through rrgen types") {
  round_trip(
      {"uuid",
       "uuid_generator.hpp",
       "generators.external-secrets.io",
       {},
       kCorpus.empty() ? fs::path() : kCorpus / "crds/external-secrets/generators.external-secrets.io_uuids.yaml"});
}

TEST_CASE("rrgen crd golden: every member type and marker; rrgen types reads the CRD without a diagnostic") {
  round_trip({"all_members", "all_members.hpp", "sink.example.com", {}, {}});
}

TEST_CASE("rrgen crd: unsupported members and bad markers are errors at their line, and nothing is written") {
  ScratchDir scratch("rrgen-crd-");
  const fs::path header = kData / "bad_members.hpp";
  const CommandRun r = crd(
      {"--group", "bad.example.com", "-I", kRuntimeInclude, "--out", (scratch.path / "out").string(), header.string()});
  CHECK(r.status == 1);
  struct Expected {
    const char* needle;  // where the error is
    const char* check;
    const char* says;
  };
  const Expected expected[] = {
      {"pointer_member", "crd-unsupported-type", "a pointer has no JSON form"},
      {"union_member", "crd-unsupported-type", "a union"},
      {"variant_member", "crd-unsupported-type", "std::variant"},
      {"unsigned64_member", "crd-unsupported-type", "unsigned 64-bit"},
      {"int_keys_member", "crd-unsupported-type", "keys are strings"},
      {"unseen_member", "crd-unsupported-type", "declared but not defined"},
      {"+kubebuilder:validation:Pattern", "crd-marker-type", "applies to strings"},
      {"+kubebuilder:validation:Frobnicate", "crd-marker-unknown", "unknown marker"},
      {"+kubebuilder:validation:Minimum=abc", "crd-marker-invalid", "is not a number"},
      {"+kubebuilder:subresource:status", "crd-marker-misplaced", "belongs on a kind's root struct"},
  };
  for (const Expected& e : expected) {
    CAPTURE(e.needle);
    const std::string at = "bad_members.hpp" + position_of(header, e.needle);
    const std::size_t line_start = r.err.find(at);
    REQUIRE_MESSAGE(line_start != std::string::npos, "no error at " << at << " in:\n" << r.err);
    const std::string line = r.err.substr(line_start, r.err.find('\n', line_start) - line_start);
    CHECK(line.find(e.says) != std::string::npos);
    CHECK(line.find(std::string("[") + e.check + "]") != std::string::npos);
  }
  CHECK(r.err.find("rrgen: 10 error(s); no files written") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch.path / "out"));
}

TEST_CASE("rrgen crd: a header that does not parse is an error at Clang's position") {
  ScratchDir scratch("rrgen-crd-");
  const fs::path header = scratch.path / "broken.hpp";
  std::ofstream(header) << "struct A {\n  int x\n};\n";
  const CommandRun r = crd({"--group", "a.example.com", "--out", (scratch.path / "out").string(), header.string()});
  CHECK(r.status == 1);
  CHECK(r.err.find("broken.hpp:2:8: error: ") != std::string::npos);
  CHECK(r.err.find("[crd-parse-error]") != std::string::npos);
  CHECK_FALSE(fs::exists(scratch.path / "out"));
}

TEST_CASE("rrgen crd: a second run writes nothing; the output is replaced whole") {
  ScratchDir scratch("rrgen-crd-");
  const std::string out = (scratch.path / "out").string();
  const std::vector<std::string> args{
      "--group", "clux.dev", "-I", kRuntimeInclude, "--out", out, (kData / "multi_version.hpp").string()};
  const CommandRun first = crd(args);
  REQUIRE(first.status == 0);
  CHECK(first.err.find("rrgen: 1 CRD(s); 1 file(s) written, 0 unchanged") != std::string::npos);
  const CommandRun second = crd(args);
  REQUIRE(second.status == 0);
  CHECK(second.err.find("0 file(s) written, 1 unchanged") != std::string::npos);
  // No temporary file is left beside the output.
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(out)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{".rrgen-manifest", "clux.dev_multiversions.yaml"});
}

TEST_CASE("rrgen crd: usage errors exit 2 and say what is wrong") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const Case cases[] = {
      {{}, "no headers given"},
      {{"a.hpp"}, "--group is required"},
      {{"--group", "Not_A_Group", "a.hpp"}, "is not a DNS subdomain"},
      {{"--group", "a.example.com", "--scope", "Global", "a.hpp"}, "--scope is Namespaced or Cluster"},
      {{"--group", "a.example.com", "--version", "1", "a.hpp"}, "is not a Kubernetes version"},
      {{"--group", "a.example.com", "-I"}, "option '-I' needs a value"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.says);
    const CommandRun r = crd(c.args);
    CHECK(r.status == 2);
    CHECK(r.err.find(c.says) != std::string::npos);
  }
}
