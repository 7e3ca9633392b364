// `rrgen analyze`: the RBAC an operator's code needs, read from its sources with Clang
// (docs/analyze.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_analyze(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
