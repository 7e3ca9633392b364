// `rrgen analyze`'s usage errors and the errors it reports before any parse. (What it finds is
// pinned by tests/analyze/.)
#include "cli/cli_analyze.hpp"

#include <doctest/doctest.h>

#include "command_run.hpp"

#include <string>
#include <vector>

namespace {

CommandRun analyze(const std::vector<std::string>& args) { return run_command(rrgen::run_analyze, args); }

}  // namespace

TEST_CASE("rrgen analyze: usage errors exit 2 and say what is wrong") {
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  const Case cases[] = {
      {{}, "analyze needs the C++ sources to read (FILE...)"},
      {{"crds/widgets.yaml"}, "analyze needs the C++ sources to read (FILE...)"},
      {{"--format=xml", "hooks.cpp"}, "--format must be yaml or report, not 'xml'"},
      {{"--depfile", "a.d", "hooks.cpp"}, "--depfile needs --out FILE"},
      {{"--dump-model=json", "hooks.cpp"}, "unknown option '--dump-model=json'"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.says);
    const CommandRun r = analyze(c.args);
    CHECK(r.status == 2);
    CHECK(r.err.find(c.says) != std::string::npos);
    CHECK(r.out.empty());
  }
}

TEST_CASE("rrgen analyze: --help prints the usage on standard output") {
  const CommandRun r = analyze({"--help"});
  CHECK(r.status == 0);
  CHECK(r.out.find("usage: rrgen analyze") == 0);
}

TEST_CASE("rrgen analyze: a build directory without compile_commands.json is an error, exit 1") {
  const CommandRun r = analyze({"-p", "/nonexistent-rrgen-build", "hooks.cpp"});
  CHECK(r.status == 1);
  CHECK(r.err.find("[analyze-no-compile-command]") != std::string::npos);
  CHECK(r.out.empty());
}
