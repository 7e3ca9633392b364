// `rrgen init NAME [--dir DIR] [--group G] [--version V] [--kind K]`: a new operator project.
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "backends/scaffold/init.hpp"
#include "support/diagnostics.hpp"
#include "support/output.hpp"

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 the project could not be created, 2 usage error.
int run_init(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// The whole project in memory: `project` (scaffold_project's files) and the hooks and tests the
// scaffold generates from its spec and CRD. nullopt, with the errors in diags, when they do not
// generate: a bug of rrgen, which must then write nothing.
std::optional<OutputSet> generate_project(OutputSet project, const InitOptions& options, Diagnostics& diags);

}  // namespace rrgen
