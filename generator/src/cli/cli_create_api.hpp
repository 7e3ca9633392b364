// `rrgen create api --group G --version V --kind K [--resource] [--controller] [--dir DIR]`: adds a
// kind to a project `rrgen init` made (init runs the same code for its first kind).
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "backends/scaffold/init.hpp"
#include "backends/scaffold/project_kinds.hpp"
#include "support/diagnostics.hpp"
#include "support/output.hpp"

namespace rrgen {

// The kinds of the project rrgen init made at `root` (its rrgen/kinds.cmake); nullopt when `root`
// is not such a project.
std::optional<ProjectKinds> read_project_kinds(const std::string& root);

// Exit codes as run_cli: 0 success, 1 the kind could not be added, 2 usage error.
int run_create(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

struct ApiFiles {
  OutputSet created;    // files that must not exist yet: the CRD, the spec, hooks and tests
  OutputSet rewritten;  // rrgen's own: rrgen/kinds.cmake and rrgen/kinds.hpp
};

// Everything adding `api` to `project` writes, in memory. `resource`: the sample CRD; else
// `existing_crd` is the text of the kind's CRD already in the project. `controller`: the spec, the
// hooks and tests (tests/<stem>/) and the kind in rrgen/kinds.*. nullopt, with the errors in diags,
// when they do not generate (an existing CRD that is not the kind's, say).
std::optional<ApiFiles> api_files(ProjectKinds project, const ProjectNames& names, const ApiOptions& api, bool resource,
                                  bool controller, const std::string* existing_crd, Diagnostics& diags);

}  // namespace rrgen
