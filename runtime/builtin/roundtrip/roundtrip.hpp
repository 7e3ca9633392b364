// Round trips of Kubernetes' own fixtures (k8s.io/api's testdata layout: one object per kind,
// every member filled, as <group>.<version>.<Kind>.json, .yaml and .pb; the core group is "core")
// through the generated types: JSON decodes and re-encodes to the same JSON, YAML likewise, the
// protobuf envelope byte for byte (pb_check.hpp), and every form decodes to the same object. Where
// a fixture's exact round trip is not expected, Kubernetes writes what re-encoding gives beside it
// (<group>.<version>.<Kind>.after_roundtrip.{json,yaml,pb}, per form): that form is compared with it.
#pragma once
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/kind_codec.hpp"

namespace rr::roundtrip {

// NotChecked: a protobuf fixture of a kind whose types have no protobuf codec (listed, not hidden).
enum class Outcome { Passed, Failed, Skipped, NotChecked };

struct FixtureResult {
  std::string file;  // file name within the folder
  Outcome outcome = Outcome::Passed;
  std::string detail;  // why it failed, was skipped or not checked
};

struct Report {
  std::size_t passed = 0, failed = 0, skipped = 0, not_checked = 0;
  std::vector<FixtureResult> results;  // by file name
};

// Checks every fixture in `dir` against the kinds of `codecs` (a fixture whose apiVersion and kind
// no codec has is skipped: the API does not serve it). Throws std::filesystem::filesystem_error
// when the folder cannot be read.
Report check_fixtures(const std::filesystem::path& dir, std::span<const KindCodec> codecs);

// The JSON pointer of the first place where two JSON texts differ, or "" when they are equal as
// JSON values (object members in any order; 1 and 1.0 equal).
std::string first_difference(const std::string& expected_json, const std::string& actual_json);

// The command line of the fixture tools (rrgen-roundtrip, rrgen-apply-roundtrip): [--verbose] DIR.
struct FixtureArgs {
  bool verbose = false;
  std::string dir;
};
// Fills `args`, or returns the exit status to end with: 0 after printing `help` for --help, 2
// after naming the usage error on standard error (as `program: ...`).
std::optional<int> parse_fixture_args(int argc, char** argv, std::string_view program, std::string_view help,
                                      FixtureArgs& args);

}  // namespace rr::roundtrip
