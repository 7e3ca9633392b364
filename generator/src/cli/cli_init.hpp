// `rrgen init NAME [--dir DIR] [--group G] [--version V] [--kind K]`: a new operator project.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 the project could not be created, 2 usage error.
int run_init(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
