// `rrgen generate`: reconciler spec + CRDs -> types, reconciler wiring, test factories, RBAC and
// the config/ tree (regenerated), plus the user-owned scaffolds (created once) with --scaffold.
// The stages run in memory (generate_pipeline.cpp); nothing is written unless every one succeeded.
#include "cli/cli_generate.hpp"

#include <filesystem>
#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/cli_create_api.hpp"
#include "cli/generate_pipeline.hpp"
#include "cli/options.hpp"
#include "load/spec_reader.hpp"
#include "support/naming.hpp"

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
  dist/install.yaml                what kubectl kustomize config/default renders, in one file
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

int generate(const Options& args, std::ostream& err) {
  Diagnostics diags;
  SourceSet sources;
  GenerateInput input;
  input.spec = read_spec(sources, args.spec, diags);
  for (const auto& path : args.operands) input.crds.push_back(sources.read(path, diags));
  std::vector<std::string> depends{args.spec};
  depends.insert(depends.end(), args.operands.begin(), args.operands.end());
  if (input.spec) {
    // A policy's `file:` is an input too (its path from the spec's folder).
    const std::filesystem::path folder = std::filesystem::path(args.spec).parent_path();
    for (const SpecAdmissionPolicy& p : input.spec->policies)
      if (!p.file.empty()) depends.push_back((folder / p.file).string());
  }
  input.stem = args.stem;
  input.cpp_namespace = args.cpp_namespace;
  input.scaffold = !args.scaffold_dir.empty();
  std::optional<GenerateResult> result = generate_outputs(sources, std::move(input), diags);
  diags.print(err);
  if (!result) {
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }

  // In a project rrgen init made, a kind's tests live in tests/<stem>/ (rrgen create api puts them
  // there, and the kind's add_reconciler() globs that directory): a step added later goes there too.
  if (!args.scaffold_dir.empty()) {
    if (const auto project = read_project_kinds(args.scaffold_dir)) {
      for (const ProjectKind& k : project->kinds)
        if (k.stem == result->stem) place_kind_tests(result->scaffold, k.stem);
    }
  }
  const OutputSet& out = result->generated;
  WriteStats stats, scaffolded;
  // --scaffold alone creates the user's files and nothing else: generated files never land in a
  // source tree by accident.
  const bool generated = args.out_given || args.scaffold_dir.empty();
  Diagnostics write_diags;
  const bool ok = (!generated || write_outputs(out, args.out_dir, write_diags, stats)) &&
                  (!generated || args.depfile.empty() || write_depfile(args.depfile, out, args.out_dir, depends, write_diags)) &&
                  (args.scaffold_dir.empty() || write_new_files(result->scaffold, args.scaffold_dir, write_diags, scaffolded));
  if (!ok) {
    write_diags.print(err);
    return 1;
  }
  if (!args.quiet && generated) {
    err << "rrgen: reconciler " << result->reconciler << " (" << result->steps << " step(s), " << result->kinds
        << " kind(s)); " << stats.written << " file(s) written, " << stats.unchanged << " unchanged, "
        << stats.removed << " removed in " << args.out_dir << "\n";
  }
  if (!args.quiet && !args.scaffold_dir.empty()) {
    err << "rrgen: scaffold: " << scaffolded.written << " file(s) created, " << scaffolded.unchanged
        << " already there (kept as they are) in " << args.scaffold_dir << "\n";
  }
  return 0;
}

}  // namespace

int run_generate(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  Options args;
  if (auto code = parse_options(argv,
                                {Flag::Out, Flag::Depfile, Flag::Namespace, Flag::Quiet, Flag::Spec, Flag::Scaffold,
                                 Flag::Stem},
                                kGenerateUsage, args, out, err))
    return *code;
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
