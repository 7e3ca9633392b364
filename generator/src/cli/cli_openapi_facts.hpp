// `rrgen openapi-facts`: the facts of Kubernetes' OpenAPI v3 documents, without their prose, as one
// OpenAPI v3 document per group-version (docs/kubernetes-api-facts.md).
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 diagnostics, 2 usage error.
int run_openapi_facts(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
