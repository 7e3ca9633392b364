// `rrgen crd`: CustomResourceDefinitions from C++ structs and their kubebuilder markers, read
// with Clang (docs/crd-from-types.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_crd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
