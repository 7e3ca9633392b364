// A project's one deploy tree. The kinds of a project `rrgen init` made run in one manager
// (src/main.cpp), so they deploy as one operator: every kind's CRD, one ServiceAccount, one
// manager role holding the rules of every kind normalised together, one Deployment, and the
// admission policies of every kind, named after the project (`shop-system`,
// `shop-controller-manager`). `rrgen project-config` writes it; rrgen/kinds.cmake runs that at
// build time. Each kind's own config/ tree (add_reconciler) stays as it is.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cli/generate_pipeline.hpp"

namespace rrgen {

// config/ and dist/install.yaml for the project `project` (its identifier, "my_operator") over
// `kinds` (one GenerateInput per kind, as for generate_outputs). nullopt, with errors in diags,
// when a kind does not resolve or the kinds disagree on what one manager has once (image,
// replicas, deploy namespace, metrics): `[project-deploy-mismatch]`, at the spec that differs.
std::optional<OutputSet> project_config(const SourceSet& sources, std::vector<GenerateInput> kinds,
                                        const std::string& project, Diagnostics& diags);

}  // namespace rrgen
