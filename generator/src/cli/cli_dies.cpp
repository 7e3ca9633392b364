// `rrgen dies`: one test-factory header per kind, for kinds that have no reconciler spec: the
// runtime's built-in kinds (rr::testing builds its shared dies with it) or a user's CRDs.
#include "cli/cli_dies.hpp"

#include <ostream>

#include "backends/dies/emit_dies.hpp"
#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "load/inputs.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/sema.hpp"
#include "support/output.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

constexpr const char* kDiesUsage =
    R"(usage: rrgen dies --namespace NS [--include-prefix DIR] [--out DIR] [--depfile FILE] (--builtin | FILE...)

Writes one header per kind into DIR (default: the current directory), only where its content
changed: an immutable fluent builder ("die", docs/test-factories.md) whose controlled_by() takes
any owner kind. The die of the kind unit <path> (as `rrgen types` names it, e.g.
k8s/apps/v1/deployment) is <prefix>/<path>.hpp, class NS::<group>::<version>::<Kind>Die.

Options:
  --builtin            The runtime's built-in kinds (rr::builtin) instead of FILEs.
  --namespace NS       C++ namespace of the dies (required), e.g. rr::testing::dies.
  --types-namespace NS Root C++ namespace of the FILEs' types, as given to `rrgen types`.
  --include-prefix DIR Folder of the headers below DIR (default: dies).
  --out DIR            Output directory.
  --depfile FILE       Write a Make-style depfile listing the inputs of the outputs.
  --quiet              Do not print the summary line.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

}  // namespace

int run_dies(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  o.include_prefix = "dies";
  if (auto code = parse_options(args,
                                {Flag::Out, Flag::Depfile, Flag::Namespace, Flag::Quiet, Flag::Builtin,
                                 Flag::TypesNamespace, Flag::IncludePrefix},
                                kDiesUsage, o, out, err))
    return *code;
  const std::string &out_dir = o.out_dir, &depfile = o.depfile, &ns = o.cpp_namespace, &types_ns = o.types_namespace,
                    &prefix = o.include_prefix;
  const std::vector<std::string>& files = o.operands;
  const bool builtin = o.builtin;
  if (builtin == !files.empty()) return usage_error(err, "give either --builtin or input files");
  if (!is_cpp_namespace(ns)) return usage_error(err, "--namespace '" + ns + "' is not a C++ namespace name");
  if (!types_ns.empty() && !is_cpp_namespace(types_ns))
    return usage_error(err, "--types-namespace '" + types_ns + "' is not a C++ namespace name");
  if (builtin && !types_ns.empty()) return usage_error(err, "--types-namespace applies to input files only");
  if (prefix.empty() || prefix.front() == '/') return usage_error(err, "--include-prefix takes a relative folder");

  Diagnostics diags;
  SourceSet sources;
  Model model;
  if (!builtin) {
    InputSet inputs = read_inputs(sources, files, diags);
    if (!diags.has_errors()) model = build_model(inputs, SemaOptions{types_ns}, diags);
    diags.print(err);
    if (diags.has_errors()) {
      err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
      return 1;
    }
  }
  const OutputSet dies = emit_kind_dies(builtin ? builtin_model() : model, KindDiesOptions{kVersion, ns, prefix});
  WriteStats stats;
  if (!write_outputs(dies, out_dir, diags, stats) ||
      (!depfile.empty() && !write_depfile(depfile, dies, out_dir, files, diags))) {
    diags.print(err);
    return 1;
  }
  if (!o.quiet) {
    err << "rrgen: " << dies.files.size() << " die(s); " << stats.written << " file(s) written, " << stats.unchanged
        << " unchanged, " << stats.removed << " removed in " << out_dir << "\n";
  }
  return 0;
}

}  // namespace rrgen
