// libFuzzer target: arbitrary bytes as a project's rrgen/kinds.cmake (`rrgen create api` reads it
// back). Any crash, sanitizer report or uncaught exception is a bug; a refusal is the expected
// outcome. What it accepts must survive the round trip through kinds_cmake() unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "backends/scaffold/project_kinds.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rrgen;
  std::string problem;
  const auto kinds = parse_project_kinds(std::string(reinterpret_cast<const char*>(data), size), problem);
  if (!kinds) return 0;
  (void)kinds_header(*kinds);
  std::string again_problem;
  const auto again = parse_project_kinds(kinds_cmake(*kinds).content, again_problem);
  if (!again || again->project != kinds->project || again->kinds.size() != kinds->kinds.size()) std::abort();
  return 0;
}
