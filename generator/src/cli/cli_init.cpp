// `rrgen init`: the project's own files (init.cpp) and its first kind, as `rrgen create api` adds it
// (cli_create_api.cpp: the CRD, the spec and the scaffold `rrgen generate --scaffold` writes).
// The whole project is generated in memory first: a project that would not generate leaves
// nothing on disk.
#include "cli/cli_init.hpp"

#include <filesystem>
#include <ostream>
#include <system_error>

#include "cli/cli_args.hpp"
#include "cli/cli_create_api.hpp"
#include "cli/options.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace fs = std::filesystem;
namespace {

constexpr const char* kInitUsage =
    R"(usage: rrgen init NAME [--dir DIR] [--group GROUP] [--version VERSION] [--kind KIND]

Creates a new operator project in DIR (default: ./NAME), which must not exist or be empty:
  CMakeLists.txt           find_package(rrgen CONFIG), the operator (`manager`) and its `run` target
  CMakePresets.json        `cmake --workflow --preset run` (configure, build, run) and `--preset dev`
                           (configure, build, test), with Ninja into build/ and rrgen's install prefix
  src/main.cpp             the operator's main(): rr::run_operator with every kind's controller
  rrgen/kinds.cmake, .hpp  each kind's add_reconciler() and controller (rrgen's: create api rewrites them)
  and the first kind, KIND, as `rrgen create api` adds it:
  crds/<plural>.yaml       a sample CRD with a status subresource and conditions
  samples/<stem>.yaml      an object of it, for kubectl apply
  reconcilers/<stem>.yaml  the reconciler spec: a sync step and a child ConfigMap
  src/<stem>_hooks.*       the hooks the generated wiring calls (yours)
  tests/<stem>/*_test.cpp  a test per step (yours)
  README.md, .gitignore
The project configures, builds and passes its tests as created. Nothing is written unless all
of it could be.

NAME starts with a lower-case letter and has only lower-case letters, digits and single '-' or
'_' between them, at most 63 characters: a, shop2, my-operator, my_operator. IDENT is NAME with
'_' for '-' (my_operator: C++ namespace, CMake targets, file names); Kubernetes names use '-'
(my-operator: deploy namespace my-operator-system, labels, leaderElectionID). <stem> is KIND in
snake_case (MyOperator: my_operator): the kind's C++ namespace, CMake targets and file names.

Options:
  --dir DIR          Where to create the project.
  --group GROUP      The CRD's API group (default: example.com).
  --version VERSION  The CRD's version (default: v1alpha1).
  --kind KIND        The reconciled kind (default: NAME in PascalCase).

Exit status: 0 success, 1 the project could not be created, 2 usage error.
)";

int fail(std::ostream& err, const std::string& message) {
  err << "rrgen: error: " << message << "\n";
  return 1;
}

// The prefix this rrgen is installed in (its package beside it), for CMAKE_PREFIX_PATH: "" when
// CMake searches that prefix anyway, nothing when rrgen runs from a build tree.
std::optional<std::string> install_prefix() {
  std::error_code ec;
  const fs::path prefix = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path();
  if (ec || !fs::exists(prefix / "lib/cmake/rrgen/rrgenConfig.cmake", ec)) return std::nullopt;
  if (prefix == "/usr" || prefix == "/usr/local") return "";
  return prefix.string();
}

}  // namespace

std::optional<OutputSet> generate_project(OutputSet project, const InitOptions& options, Diagnostics& diags) {
  // The first kind is what `rrgen create api` adds to a project that has none.
  const ProjectNames names = project_names(options.name);
  std::optional<ApiFiles> api = api_files({names.identifier, {}}, names, init_api(options), true, true, nullptr, diags);
  if (!api) return std::nullopt;
  for (auto& f : api->created.files) project.files.push_back(std::move(f));
  for (auto& f : api->rewritten.files) project.files.push_back(std::move(f));
  return project;
}

int run_init(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  InitOptions options;
  options.generator_version = kVersion;
  Options o;
  o.group = options.group;  // the defaults, unless given (an empty value is refused below)
  o.version = options.version;
  if (auto code = parse_options(args, {Flag::Dir, Flag::Group, Flag::Version, Flag::Kind}, kInitUsage, o, out, err,
                                [&o](const std::string& option) {
                                  // "-x" may have been meant as a name: say why it cannot be one.
                                  return o.operands.empty() ? project_name_error(option).value_or("") : std::string();
                                }))
    return *code;
  if (o.operands.size() > 1) {
    return usage_error(err, "init takes one NAME, got '" + o.operands[0] + "' and '" + o.operands[1] + "'");
  }
  const bool named = !o.operands.empty();
  if (named) options.name = o.operands.front();
  options.group = o.group;
  options.version = o.version;
  options.kind = o.kind;
  options.prefix_path = install_prefix();
  std::string dir = o.dir;
  if (!named) return usage_error(err, "init needs the project's NAME");
  if (auto problem = init_options_error(options)) return usage_error(err, *problem);
  if (dir.empty()) dir = options.name;

  const fs::path root(dir);
  std::error_code ec;
  if (fs::exists(root, ec) && !(fs::is_directory(root, ec) && fs::is_empty(root, ec))) {
    return fail(err, "'" + dir + "' is not an empty directory; rrgen init creates new projects only");
  }

  Diagnostics diags;
  const std::optional<OutputSet> project = generate_project(scaffold_project(options), options, diags);
  if (!project) {
    diags.print(err);
    err << "rrgen: internal error: the project's own spec and CRD did not generate (nothing was written); "
           "please report this\n";
    return 1;
  }
  if (!write_new_directory(*project, dir, diags)) {
    diags.print(err);
    err << "rrgen: the project was not created (nothing was written)\n";
    return 1;
  }
  const std::string stem = kind_stem(init_kind(options));
  out << "Created the " << init_kind(options) << " operator '" << options.name << "' in " << dir << ".\n";
  if (!options.prefix_path) {
    out << "rrgen runs from a build tree: set CMAKE_PREFIX_PATH to where rrgen is installed (in the environment,\n"
        << "or in " << dir << "/CMakePresets.json) before the commands below.\n";
  }
  out << "Configure, build and run it against an embedded local cluster (CMakePresets.json: Ninja, " << dir
      << "/build):\n"
      << "  cd " << dir << " && cmake --workflow --preset run\n"
      << "and in another shell:\n"
      << "  kubectl --kubeconfig " << dir << "/build/kubeconfig apply -f " << dir << "/"
      << kind_sample_path(init_kind(options)) << "\n"
      << "Build and test: cmake --workflow --preset dev (then cmake --build build && ctest --test-dir build).\n"
      << "Then fill in src/" << stem << "_hooks.cpp, and add kinds with `rrgen create api`; " << dir
      << "/README.md says what is where.\n";
  return 0;
}

}  // namespace rrgen
