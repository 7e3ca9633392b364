// The backends are listed here explicitly, in output order; each is a pure function of the
// resolved spec.
#include "cli/generate_pipeline.hpp"

#include <filesystem>
#include <set>
#include <string_view>

#include "backends/config/emit_config.hpp"
#include "backends/dies/emit_dies.hpp"
#include "backends/rbac/emit_rbac.hpp"
#include "backends/reconciler/emit_reconciler.hpp"
#include "backends/reconciler/emit_webhooks.hpp"
#include "backends/scaffold/scaffold.hpp"
#include "backends/types/emit_apply.hpp"
#include "backends/types/emit_types.hpp"
#include "cli/install_yaml.hpp"
#include "load/inputs.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/sema.hpp"
#include "sema/spec_resolve.hpp"
#include "support/generate_options.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

// A file of CustomResourceDefinitions, not an OpenAPI document (which no cluster takes).
bool holds_crds(const std::string* name, std::string_view text) {
  Diagnostics ignored;  // the inputs were read without errors before
  for (const Node& doc : load_yaml(name, text, ignored)) {
    const Node* kind = doc.is_mapping() ? doc.find("kind") : nullptr;
    if (kind && kind->text == "CustomResourceDefinition") return true;
  }
  return false;
}

// Two backends writing the same path is a bug in rrgen, not in the input: fail loudly.
bool unique_paths(const OutputSet& out, Diagnostics& diags) {
  std::set<std::string> seen;
  for (const auto& f : out.files) {
    if (!seen.insert(f.path).second) {
      diags.error({}, "internal-duplicate-output", "two backends generate '" + f.path + "'");
      return false;
    }
  }
  return true;
}

}  // namespace

// The CRD files verbatim, for config/crd/bases (a copy, so nothing is lost in translation).
std::vector<ConfigCrdFile> crd_files_of(const SourceSet& sources, const std::vector<const std::string*>& names) {
  std::vector<ConfigCrdFile> out;
  for (const std::string* name : names) {
    if (name && holds_crds(name, sources.content(name)))
      out.push_back({std::filesystem::path(*name).filename().string(), std::string(sources.content(name))});
  }
  return out;
}

void append(OutputSet& into, OutputSet from) {
  for (auto& f : from.files) into.files.push_back(std::move(f));
}

// dist/install.yaml from the config/ tree just generated.
bool add_install_yaml(OutputSet& out, Diagnostics& diags) {
  const KustomizeFiles files = [&out](const std::string& path) -> const std::string* {
    for (const OutputFile& f : out.files) {
      if (f.path == path) return &f.content;
    }
    return nullptr;
  };
  std::optional<std::string> text = install_yaml(files, diags);
  if (!text) return false;
  out.files.push_back({kInstallYamlPath, std::move(*text)});
  return true;
}

std::optional<ResolvedSpec> resolve_inputs(const SourceSet& sources, GenerateInput& input, Model& model,
                                           Diagnostics& diags) {
  std::optional<ReconcilerSpec>& spec = input.spec;
  if (spec && !input.cpp_namespace.empty()) spec->cpp_namespace = input.cpp_namespace;
  // CRDs are read even when the spec has errors, so one run reports both.
  const InputSet inputs = read_sources(sources, input.crds, diags);

  std::optional<ResolvedSpec> resolved;
  if (spec && !diags.has_errors()) {
    model = build_model(inputs, SemaOptions{spec->cpp_namespace}, diags);
    if (!diags.has_errors()) resolved = resolve_spec(*spec, model, diags);
  }
  if (diags.has_errors() || !resolved) return std::nullopt;
  if (!input.stem.empty()) resolved->file_stem = input.stem;
  return resolved;
}

std::optional<GenerateResult> generate_outputs(const SourceSet& sources, GenerateInput input, Diagnostics& diags) {
  Model model;
  std::optional<ResolvedSpec> resolved = resolve_inputs(sources, input, model, diags);
  if (!resolved) return std::nullopt;

  const GenerateOptions options{kVersion};
  GenerateResult result;
  OutputSet& out = result.generated;
  out = emit_types(model, TypesOptions{kVersion});
  emit_aggregate(model, resolved->file_stem + "_types", TypesOptions{kVersion}, out, 0);
  // Every CRD kind's apply configuration, compiled by <stem>_types_apply.cpp.
  const OutputSet apply = emit_apply_configurations(model, ApplyConfigOptions{kVersion, {}});
  emit_apply_aggregate(apply, resolved->file_stem + "_types", kVersion, out);
  append(out, apply);
  append(out, emit_reconciler(*resolved, options));
  append(out, emit_webhooks(*resolved, options));
  append(out, emit_dies(*resolved, model, builtin_model(), options));
  append(out, emit_rbac(*resolved, options));
  append(out, emit_config(*resolved, crd_files_of(sources, input.crds), options));
  if (!add_install_yaml(out, diags)) return std::nullopt;
  if (input.scaffold) result.scaffold = scaffold_user_files(*resolved, options);
  if (!unique_paths(out, diags)) return std::nullopt;
  result.reconciler = resolved->name;
  result.stem = resolved->file_stem;
  result.steps = resolved->steps.size();
  result.kinds = resolved->kinds.size();
  return result;
}

}  // namespace rrgen
