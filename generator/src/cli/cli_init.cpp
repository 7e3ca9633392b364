// `rrgen init`: writes the project's own files (init.cpp), then the hook files and tests through
// `rrgen generate --scaffold`, the path every later scaffold takes, so both always agree.
#include "cli/cli_init.hpp"

#include <filesystem>
#include <ostream>
#include <random>
#include <system_error>

#include "cli/cli_args.hpp"
#include "cli/cli_generate.hpp"
#include "backends/scaffold/init.hpp"
#include "support/output.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace fs = std::filesystem;
namespace {

constexpr const char* kInitUsage =
    R"(usage: rrgen init NAME [--dir DIR] [--group GROUP] [--version VERSION] [--kind KIND]

Creates a new operator project in DIR (default: ./NAME), which must not exist or be empty:
  CMakeLists.txt         find_package(rrgen CONFIG) and add_reconciler(NAME ...)
  reconciler.yaml        the reconciler spec: a sync step and a child ConfigMap
  crds/<plural>.yaml     a sample CRD with a status subresource and conditions
  src/NAME_hooks.*       the hooks the generated wiring calls (yours)
  tests/*_test.cpp       a test per step (yours)
  README.md, .gitignore
The project configures, builds and passes its tests as created.

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

// A fresh directory for the generated files `rrgen generate` writes beside the scaffold; init
// keeps only the scaffold (the project's build generates the rest).
fs::path make_scratch_dir(std::error_code& ec) {
  std::random_device random;
  for (int attempt = 0; attempt < 16; ++attempt) {
    fs::path dir = fs::temp_directory_path(ec) / ("rrgen-init-" + std::to_string(random()));
    if (ec) return {};
    if (fs::create_directory(dir, ec)) return dir;
    if (ec) return {};
  }
  ec = std::make_error_code(std::errc::file_exists);
  return {};
}

// Runs the scaffold of `rrgen generate` on the project's spec and CRD.
int scaffold_hooks(const InitOptions& options, const fs::path& dir, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  const fs::path scratch = make_scratch_dir(ec);
  if (ec) return fail(err, "cannot create a temporary directory: " + ec.message());
  const int status = run_generate({"--quiet", "--spec", (dir / init_spec_path()).string(), "--stem", options.name,
                                   "--scaffold", dir.string(), "--out", scratch.string(),
                                   (dir / init_crd_path(options)).string()},
                                  out, err);
  fs::remove_all(scratch, ec);
  return status;
}

}  // namespace

int run_init(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  InitOptions options;
  options.generator_version = kVersion;
  std::string dir;
  ArgReader reader(args);
  while (reader.next()) {
    if (reader.is_flag("--help") || reader.is_flag("-h")) {
      out << kInitUsage;
      return 0;
    }
    if (reader.value("--dir", dir) || reader.value("--group", options.group) ||
        reader.value("--version", options.version) || reader.value("--kind", options.kind)) {
    } else if (reader.failed()) {
      return usage_error(err, reader.error());
    } else if (reader.is_option()) {
      return usage_error(err, "unknown option '" + reader.current() + "'");
    } else if (!options.name.empty()) {
      return usage_error(err, "init takes one NAME, got '" + options.name + "' and '" + reader.current() + "'");
    } else {
      options.name = reader.current();
    }
  }
  if (reader.failed()) return usage_error(err, reader.error());
  if (options.name.empty()) return usage_error(err, "init needs the project's NAME");
  if (auto problem = init_options_error(options)) return usage_error(err, *problem);
  if (dir.empty()) dir = options.name;

  const fs::path root(dir);
  std::error_code ec;
  if (fs::exists(root, ec) && !(fs::is_directory(root, ec) && fs::is_empty(root, ec))) {
    return fail(err, "'" + dir + "' is not an empty directory; rrgen init creates new projects only");
  }

  Diagnostics diags;
  WriteStats stats;
  if (!write_new_files(scaffold_project(options), dir, diags, stats)) {
    diags.print(err);
    return 1;
  }
  if (const int status = scaffold_hooks(options, root, out, err); status != 0) {
    err << "rrgen: internal error: the project's own spec and CRD did not generate; please report this\n";
    return status;
  }
  out << "Created the " << init_kind(options) << " operator '" << options.name << "' in " << dir << ".\n"
      << "Build and test it (CMAKE_PREFIX_PATH: where rrgen is installed):\n"
      << "  cmake -S " << dir << " -B " << dir << "/build -DCMAKE_PREFIX_PATH=<rrgen prefix>\n"
      << "  cmake --build " << dir << "/build\n"
      << "  ctest --test-dir " << dir << "/build\n"
      << "Then fill in src/" << options.name << "_hooks.cpp; " << dir << "/README.md says what is where.\n";
  return 0;
}

}  // namespace rrgen
