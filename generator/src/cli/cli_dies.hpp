// `rrgen dies`: test factories ("dies") for the kinds of CRDs or of the runtime's built-in kinds.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_dies(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
