// `rrgen image`: an OCI image layout of an operator's executable (docs/image.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_image(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
