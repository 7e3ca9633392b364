// The rrgen command line: argument parsing and the subcommands' drivers.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes: 0 success, 1 diagnostics (bad input), 2 usage error.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
