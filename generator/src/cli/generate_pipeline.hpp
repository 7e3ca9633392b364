// Every stage of `rrgen generate` in memory: spec and CRDs -> the generated files and the
// user-owned scaffold. `rrgen generate` feeds it files it read; `rrgen init` the spec and CRD it
// has not written yet, so that nothing lands on disk unless the whole project generates.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "backends/config/emit_config.hpp"
#include "load/spec.hpp"
#include "load/yaml_load.hpp"
#include "model/model.hpp"
#include "model/reconciler.hpp"
#include "support/diagnostics.hpp"
#include "support/output.hpp"

namespace rrgen {

struct GenerateInput {
  std::optional<ReconcilerSpec> spec;        // as read_spec returned it: nullopt after errors
  std::vector<const std::string*> crds;      // registered in the SourceSet; nullptr: unreadable
  std::string stem;                          // "" = the snake_case of the spec's name
  std::string cpp_namespace;                 // "" = the spec's
  bool scaffold = false;                     // also the user-owned hooks and tests
};

struct GenerateResult {
  OutputSet generated;  // types, wiring, test factories, config/
  OutputSet scaffold;   // src/<stem>_hooks.*, tests/<step>_test.cpp (when asked for)
  std::string reconciler;             // the spec's name, steps and kinds: for the summary line
  std::string stem;                   // the files' stem ("web_app"): where a project keeps the kind's tests
  std::size_t steps = 0, kinds = 0;
};

// The stages up to the resolved spec (the types model into `model`): what `rrgen analyze --spec`
// needs. nullopt when any reported an error.
std::optional<ResolvedSpec> resolve_inputs(const SourceSet& sources, GenerateInput& input, Model& model,
                                           Diagnostics& diags);

// nullopt when any stage reported an error (in diags); warnings are in diags either way.
std::optional<GenerateResult> generate_outputs(const SourceSet& sources, GenerateInput input, Diagnostics& diags);

// Shared with the project deploy tree (project_config.cpp):
// the CRD files among `names`, verbatim, for config/crd/bases;
std::vector<ConfigCrdFile> crd_files_of(const SourceSet& sources, const std::vector<const std::string*>& names);
// `from`'s files appended to `into`;
void append(OutputSet& into, OutputSet from);
// dist/install.yaml rendered from the config/ tree in `out`, added to it (false after errors).
bool add_install_yaml(OutputSet& out, Diagnostics& diags);

}  // namespace rrgen
