// `rrgen types`: C++ types from CRD manifests and Kubernetes OpenAPI v3 documents.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_types(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
