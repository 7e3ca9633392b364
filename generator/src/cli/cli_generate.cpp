// `rrgen generate`: reconciler spec + CRDs -> types, reconciler wiring, test factories, RBAC and
// the config/ tree (regenerated), plus the user-owned scaffolds (created once) with --scaffold.
// The backends are listed here explicitly, in output order; each is a pure function of the
// resolved spec. Nothing is written unless every stage succeeded.
#include "cli/cli_generate.hpp"
#include "sema/builtin_kinds.hpp"

#include <filesystem>
#include <set>
#include <ostream>

#include "cli/cli_args.hpp"
#include "sema/builtin_kinds.hpp"
#include "backends/config/emit_config.hpp"
#include "backends/dies/emit_dies.hpp"
#include "backends/rbac/emit_rbac.hpp"
#include "backends/reconciler/emit_reconciler.hpp"
#include "backends/types/emit_types.hpp"
#include "support/generate_options.hpp"
#include "load/inputs.hpp"
#include "support/naming.hpp"
#include "support/output.hpp"
#include "backends/scaffold/scaffold.hpp"
#include "sema/sema.hpp"
#include "load/spec_reader.hpp"
#include "sema/spec_resolve.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

constexpr const char* kGenerateUsage =
    R"(usage: rrgen generate --spec FILE [--out DIR] [--scaffold DIR] [--stem NAME] [--namespace NS] [--depfile FILE] [CRD...]

Reads a reconciler spec (docs/reconciler-spec.md) and the CRD manifests it refers to, and writes
into DIR (default: the current directory), only where their content changed:
  <stem>_types.hpp/.cpp            the C++ types of every kind of the CRDs (per-kind files beside)
  <stem>_reconciler.hpp/.cpp       the reconciler wiring, calling your hooks
  <stem>_wiring_test.cpp           tests of the wiring
  <stem>_dies.hpp                  typed test factories for every kind the spec touches
  config/                          RBAC, CRDs, manager: a kustomize tree (kubectl kustomize config/default)
<stem> is the spec's name in snake_case ("WebApp" -> web_app) unless --stem says otherwise.

Options:
  --spec FILE       The reconciler spec (required).
  --out DIR         Output directory for generated files.
  --scaffold DIR    Also create the files that are yours to edit, where they do not exist yet:
                    DIR/src/<stem>_hooks.hpp, DIR/src/<stem>_hooks.cpp, DIR/tests/<step>_test.cpp.
                    Existing files are never overwritten. Without --out, only these are written.
  --stem NAME       File stem of the generated files (build systems fix it before rrgen runs).
  --namespace NS    C++ namespace of the wiring and hooks (types: NS::<version>); overrides the
                    spec's `namespace`.
  --depfile FILE    Write a Make-style depfile listing the inputs of the outputs.
  --quiet           Do not print the summary line.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

struct GenerateArgs {
  std::string spec, out_dir = ".", scaffold_dir, stem, depfile, cpp_namespace;
  bool quiet = false, out_given = false;
  std::vector<std::string> crds;
};

// The CRD files verbatim, for config/crd/bases (a copy, so nothing is lost in translation).
std::vector<ConfigCrdFile> crd_files_of(const std::vector<std::string>& paths, const SourceSet& sources,
                                        const std::vector<const std::string*>& names) {
  std::vector<ConfigCrdFile> out;
  for (std::size_t i = 0; i < paths.size() && i < names.size(); ++i) {
    out.push_back({std::filesystem::path(paths[i]).filename().string(), std::string(sources.content(names[i]))});
  }
  return out;
}

void append(OutputSet& into, OutputSet from) {
  for (auto& f : from.files) into.files.push_back(std::move(f));
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

int generate(const GenerateArgs& args, std::ostream& err) {
  Diagnostics diags;
  SourceSet sources;
  std::optional<ReconcilerSpec> spec = read_spec(sources, args.spec, diags);
  if (spec && !args.cpp_namespace.empty()) spec->cpp_namespace = args.cpp_namespace;

  // CRDs are read even when the spec has errors, so one run reports both.
  std::vector<const std::string*> crd_names;
  InputSet inputs;
  for (const auto& path : args.crds) {
    InputSet one = read_inputs(sources, {path}, diags);
    for (auto& c : one.crds) inputs.crds.push_back(std::move(c));
    for (auto& d : one.documents) inputs.documents.push_back(std::move(d));
  }
  // read_inputs registers each file once; look the names up again for the verbatim copies.
  for (const auto& path : args.crds) crd_names.push_back(sources.read(path, diags));

  Model model;
  std::optional<ResolvedSpec> resolved;
  if (spec && !diags.has_errors()) {
    model = build_model(inputs, SemaOptions{spec->cpp_namespace}, diags);
    if (!diags.has_errors()) resolved = resolve_spec(*spec, model, diags);
  }
  diags.print(err);
  if (diags.has_errors() || !resolved) {
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }
  if (!args.stem.empty()) resolved->file_stem = args.stem;

  const GenerateOptions options{kVersion};
  OutputSet out = emit_types(model, TypesOptions{kVersion});
  emit_aggregate(model, resolved->file_stem + "_types", TypesOptions{kVersion}, out);
  append(out, emit_reconciler(*resolved, options));
  append(out, emit_dies(*resolved, model, builtin_model(), options));
  append(out, emit_rbac(*resolved, options));
  append(out, emit_config(*resolved, crd_files_of(args.crds, sources, crd_names), options));
  OutputSet scaffold;
  if (!args.scaffold_dir.empty()) scaffold = scaffold_user_files(*resolved, options);

  std::vector<std::string> depends{args.spec};
  depends.insert(depends.end(), args.crds.begin(), args.crds.end());
  WriteStats stats, scaffolded;
  // --scaffold alone creates the user's files and nothing else: generated files never land in a
  // source tree by accident.
  const bool generated = args.out_given || args.scaffold_dir.empty();
  const bool ok = unique_paths(out, diags) && (!generated || write_outputs(out, args.out_dir, diags, stats)) &&
                  (!generated || args.depfile.empty() || write_depfile(args.depfile, out, args.out_dir, depends, diags)) &&
                  (args.scaffold_dir.empty() || write_new_files(scaffold, args.scaffold_dir, diags, scaffolded));
  if (!ok) {
    diags.print(err);
    return 1;
  }
  if (!args.quiet && generated) {
    err << "rrgen: reconciler " << resolved->name << " (" << resolved->steps.size() << " step(s), "
        << resolved->kinds.size() << " kind(s)); " << stats.written << " file(s) written, " << stats.unchanged
        << " unchanged, " << stats.removed << " removed in " << args.out_dir << "\n";
  }
  if (!args.quiet && !args.scaffold_dir.empty()) {
    err << "rrgen: scaffold: " << scaffolded.written << " file(s) created, " << scaffolded.unchanged
        << " already there (kept as they are) in " << args.scaffold_dir << "\n";
  }
  return 0;
}

}  // namespace

int run_generate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  GenerateArgs args;
  ArgReader reader(argv);
  while (reader.next()) {
    if (reader.is_flag("--help") || reader.is_flag("-h")) {
      out << kGenerateUsage;
      return 0;
    }
    if (reader.is_flag("--quiet")) {
      args.quiet = true;
    } else if (reader.value("--out", args.out_dir)) {
      args.out_given = true;
    } else if (reader.value("--spec", args.spec) ||
               reader.value("--scaffold", args.scaffold_dir) || reader.value("--stem", args.stem) ||
               reader.value("--depfile", args.depfile) || reader.value("--namespace", args.cpp_namespace)) {
    } else if (reader.failed()) {
      return usage_error(err, reader.error());
    } else if (reader.is_option()) {
      return usage_error(err, "unknown option '" + reader.current() + "'");
    } else {
      args.crds.push_back(reader.current());
    }
  }
  if (reader.failed()) return usage_error(err, reader.error());
  if (args.spec.empty()) return usage_error(err, "generate needs --spec FILE");
  if (!args.cpp_namespace.empty()) {
    if (std::string why = cpp_namespace_problem(args.cpp_namespace); !why.empty())
      return usage_error(err, "--namespace '" + args.cpp_namespace + "' is not a C++ namespace: " + why);
  }
  if (!args.stem.empty() && file_stem(args.stem) != args.stem) {
    return usage_error(err, "--stem '" + args.stem + "' must be lower-case letters, digits and '_'");
  }
  return generate(args, err);
}

}  // namespace rrgen
