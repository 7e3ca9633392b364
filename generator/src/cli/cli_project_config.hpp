// `rrgen project-config [--dir DIR] --out DIR`: the deploy tree of a project rrgen init made,
// all its kinds in one operator (project_config.hpp).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 errors (nothing written), 2 usage error.
int run_project_config(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
