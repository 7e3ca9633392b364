#include "cli/cli_project_config.hpp"

#include <filesystem>
#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/cli_create_api.hpp"
#include "cli/options.hpp"
#include "cli/project_config.hpp"
#include "load/spec_reader.hpp"
#include "support/output.hpp"

namespace rrgen {
namespace {

constexpr const char* kProjectConfigUsage =
    R"(usage: rrgen project-config [--dir DIR] --out DIR [--quiet]

Writes the deploy tree of a project `rrgen init` made, with every kind of the project in one
operator: config/ (kubebuilder's layout: crd/ with every kind's CRD, rbac/ with one manager role
holding every kind's rules, manager/ with one Deployment, default/) and dist/install.yaml, named
after the project (<project>-system, <project>-controller-manager). The kinds are those of
rrgen/kinds.cmake, each from reconcilers/<stem>.yaml and crds/<plural>.yaml. The project's build
runs this (target <project>_config); `kubectl apply -f dist/install.yaml` deploys the operator.

The kinds must agree on what the one manager has once: image, replicas, deployNamespace and
metrics (a difference is an error at the spec that differs), and at most one kind has webhooks.

Options:
  --dir DIR   The project (default: the current directory).
  --out DIR   Where to write config/ and dist/ (required). Files are written only where their
              content changed; files an earlier run wrote and this one does not are removed.
  --quiet     Do not print the summary line.

Exit status: 0 success, 1 errors (nothing is written), 2 usage error.
)";

}  // namespace

int run_project_config(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(args, {Flag::Dir, Flag::Out, Flag::Quiet}, kProjectConfigUsage, o, out, err)) {
    return *code;
  }
  if (!o.out_given) return usage_error(err, "project-config needs --out DIR");
  if (!o.operands.empty()) return usage_error(err, "project-config takes no operands: '" + o.operands[0] + "'");
  const std::string root = o.dir.empty() ? "." : o.dir;
  const std::optional<ProjectKinds> project = read_project_kinds(root);
  Diagnostics diags;
  if (!project) {
    diags.error({}, "not-a-project",
                "'" + root + "' is not a project rrgen init made: it has no readable " + kinds_cmake_path() +
                    " (give the project's directory with --dir)");
    diags.print(err);
    return 1;
  }
  const std::filesystem::path dir(root);
  SourceSet sources;
  std::vector<GenerateInput> kinds;
  for (const ProjectKind& k : project->kinds) {
    GenerateInput input;
    input.spec = read_spec(sources, (dir / kind_spec_path(k.kind)).string(), diags);
    input.crds.push_back(sources.read((dir / kind_crd_path(k.kind)).string(), diags));
    kinds.push_back(std::move(input));
  }
  std::optional<OutputSet> files;
  if (!diags.has_errors()) files = project_config(sources, std::move(kinds), project->project, diags);
  WriteStats stats;
  if (!files || !write_outputs(*files, o.out_dir, diags, stats)) {
    diags.print(err);
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }
  diags.print(err);
  if (!o.quiet) {
    err << "rrgen: project " << project->project << " (" << project->kinds.size() << " kind(s)); " << stats.written
        << " file(s) written, " << stats.unchanged << " unchanged, " << stats.removed << " removed in " << o.out_dir
        << "\n";
  }
  return 0;
}

}  // namespace rrgen
