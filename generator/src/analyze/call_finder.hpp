// The Clang half of `rrgen analyze`: parses the operator's sources with the commands of their
// compile_commands.json and finds every call of the rr runtime's API-calling functions
// (call_table.hpp) in them, with the kind each call addresses. The only file of rrgen that
// includes Clang's headers.
#pragma once
#include <string>
#include <vector>

#include "analyze/api_call.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

struct CallFinderInput {
  std::vector<std::string> files;  // the sources to analyse (headers get an inferred command)
  std::string build_dir;           // holds compile_commands.json; "" = search upwards from each file
  std::string resource_dir;        // Clang's resource dir (its builtin headers); "" = the configured one
};

struct FoundCalls {
  std::vector<ApiCall> calls;           // sorted by location, distinct
  std::vector<std::string> read_files;  // every file the parses read (for a depfile), sorted
  std::vector<std::string> user_files;  // those of them calls are reported in (the hooks' own), sorted
};

// Parse errors in the sources, and sources without a compile command, are errors in `diags`
// (check ids analyze-parse-error, analyze-no-compile-command); the calls of the translation units
// that parsed are returned either way. A call is reported when it is written in one of `files` or
// in a file of their directories (the hooks' own headers), never inside the runtime or the
// standard library.
FoundCalls find_api_calls(const CallFinderInput& input, Diagnostics& diags);

}  // namespace rrgen
