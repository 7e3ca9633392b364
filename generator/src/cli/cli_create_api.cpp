// `rrgen create api`: everything the kind needs is generated in memory first, then the new files
// are written (none of which may exist: the user's files are never touched) and rrgen/kinds.*
// rewritten. A kind the project has is refused, so a second run changes nothing.
#include "cli/cli_create_api.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <system_error>
#include <utility>

#include "cli/cli_args.hpp"
#include "cli/generate_pipeline.hpp"
#include "cli/options.hpp"
#include "load/spec_reader.hpp"

namespace rrgen {
namespace fs = std::filesystem;
namespace {

constexpr const char* kCreateUsage =
    R"(usage: rrgen create api --group GROUP --version VERSION --kind KIND [--resource] [--controller] [--dir DIR]

Adds a kind to a project `rrgen init` made (DIR, default: the current directory):
  --resource     crds/<plural>.yaml, a sample CRD with a status subresource and conditions, and
                 samples/<stem>.yaml, an object of it
  --controller   reconcilers/<stem>.yaml (the reconciler spec: a sync step and a child ConfigMap),
                 src/<stem>_hooks.* and tests/<stem>/*_test.cpp (yours), and the kind's
                 add_reconciler() and controller in rrgen/kinds.cmake and rrgen/kinds.hpp
Neither flag: both. <stem> is the snake_case of KIND (WebApp: web_app); <plural> its lower-case
plural (webapps). --controller alone needs crds/<plural>.yaml to be there already.

Files of yours are never touched: a kind the project has already, or a file that exists, is
refused and nothing is written (so running the same command twice changes nothing). The
project's CMakeLists.txt includes rrgen/kinds.cmake, and src/main.cpp rrgen/kinds.hpp: the next
build compiles the new kind and its tests, and the operator runs its controller.

Exit status: 0 success, 1 the kind could not be added, 2 usage error.
)";

int fail(std::ostream& err, Diagnostics& diags, const std::string& check, const std::string& message) {
  diags.error({}, check, message);
  diags.print(err);
  return 1;
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

std::optional<ProjectKinds> read_project_kinds(const std::string& root) {
  const std::optional<std::string> text = read_text(fs::path(root) / kinds_cmake_path());
  std::string problem;
  return text ? parse_project_kinds(*text, problem) : std::nullopt;
}

std::optional<ApiFiles> api_files(ProjectKinds project, const ProjectNames& names, const ApiOptions& api, bool resource,
                                  bool controller, const std::string* existing_crd, Diagnostics& diags) {
  ApiFiles files;
  const OutputFile crd = resource ? scaffold_crd(api) : OutputFile{kind_crd_path(api.kind), *existing_crd};
  if (resource) {
    files.created.files.push_back(crd);
    files.created.files.push_back(scaffold_sample(api));
  }
  if (!controller) return files;

  const OutputFile spec = scaffold_spec(api, names);
  const std::string stem = kind_stem(api.kind);
  SourceSet sources;
  GenerateInput input;
  input.spec = read_spec_text(sources, spec.path, spec.content, diags);
  input.crds = {sources.add(crd.path, crd.content)};
  input.stem = stem;
  input.scaffold = true;
  std::optional<GenerateResult> result = generate_outputs(sources, std::move(input), diags);
  if (!result) return std::nullopt;
  files.created.files.push_back(spec);
  place_kind_tests(result->scaffold, stem);
  for (OutputFile& f : result->scaffold.files) files.created.files.push_back(std::move(f));
  project.kinds.push_back({api.group, api.version, api.kind, stem});
  files.rewritten.files.push_back(kinds_cmake(project));
  files.rewritten.files.push_back(kinds_header(project));
  return files;
}

int run_create(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty() || args[0] != "api") {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
      out << kCreateUsage;
      return 0;
    }
    return usage_error(err, "create takes 'api': rrgen create api --group GROUP --version VERSION --kind KIND");
  }
  Options o;
  if (auto code = parse_options({args.begin() + 1, args.end()},
                                {Flag::Dir, Flag::Group, Flag::Version, Flag::Kind, Flag::Resource, Flag::Controller},
                                kCreateUsage, o, out, err))
    return *code;
  if (!o.operands.empty()) return usage_error(err, "create api takes no operand, got '" + o.operands[0] + "'");
  const std::pair<const char*, const std::string*> required[] = {
      {"--group", &o.group}, {"--version", &o.version}, {"--kind", &o.kind}};
  for (const auto& [flag, value] : required) {
    if (value->empty()) return usage_error(err, std::string("create api needs ") + flag);
  }
  const ApiOptions api{o.group, o.version, o.kind};
  const bool both = !o.resource && !o.controller;
  const bool resource = both || o.resource;
  const bool controller = both || o.controller;
  const fs::path root(o.dir.empty() ? "." : o.dir);

  Diagnostics diags;
  const fs::path kinds_path = root / kinds_cmake_path();
  const std::optional<std::string> kinds_text = read_text(kinds_path);
  if (!kinds_text) {
    return fail(err, diags, "not-a-project",
                "'" + root.string() + "' is not a project rrgen init made: it has no " + kinds_cmake_path() +
                    " (create a project with `rrgen init NAME`, or give its directory with --dir)");
  }
  std::string problem;
  const std::optional<ProjectKinds> project = parse_project_kinds(*kinds_text, problem);
  if (!project) {
    return fail(err, diags, "not-a-project", kinds_path.string() + " is not the file rrgen writes: " + problem);
  }
  const ProjectNames names = project_names(project->project);
  if (auto why = api_options_error(api, names)) return usage_error(err, *why);

  const std::string stem = kind_stem(api.kind);
  for (const ProjectKind& k : project->kinds) {
    if (controller && (k.stem == stem || (k.group == api.group && k.kind == api.kind))) {
      return fail(err, diags, "kind-exists",
                  "the project has the kind " + k.gvk() + " already (" + kinds_cmake_path() + ", reconciler '" +
                      k.stem + "'); nothing was written");
    }
  }
  const fs::path crd_path = root / kind_crd_path(api.kind);
  std::optional<std::string> existing_crd;
  std::error_code ec;
  if (resource && fs::exists(crd_path, ec)) {
    return fail(err, diags, "kind-exists",
                "the project has " + kind_crd_path(api.kind) +
                    " already: add its controller with --controller alone; "
                    "nothing was written");
  }
  if (!resource && !(existing_crd = read_text(crd_path))) {
    return fail(err, diags, "missing-crd",
                "--controller alone needs the kind's CRD in " + kind_crd_path(api.kind) +
                    ": write it, or run create api with --resource too; nothing was written");
  }

  const std::optional<ApiFiles> files = api_files(*project, names, api, resource, controller,
                                                  existing_crd ? &*existing_crd : nullptr, diags);
  if (!files) {
    diags.print(err);
    err << "rrgen: the kind was not added (nothing was written)\n";
    return 1;
  }
  for (const OutputFile& f : files->created.files) {
    if (fs::exists(root / f.path, ec)) {
      return fail(err, diags, "file-exists",
                  f.path + " exists already and is yours: rrgen create api does not overwrite it; nothing was written");
    }
  }
  WriteStats stats;
  bool ok = write_new_files(files->created, root.string(), diags, stats);
  for (const OutputFile& f : files->rewritten.files) {
    bool written = false;
    ok = ok && write_file_if_changed((root / f.path).string(), f.content, diags, written);
  }
  if (!ok) {
    diags.print(err);
    return 1;
  }
  out << "Added the kind " << api.group << "/" << api.version << "/" << api.kind << " to " << project->project << ":\n";
  for (const OutputFile& f : files->created.files) out << "  created   " << f.path << "\n";
  for (const OutputFile& f : files->rewritten.files) out << "  rewrote   " << f.path << "\n";
  if (controller) {
    out << "Fill in src/" << stem << "_hooks.cpp; the next build compiles the kind and its tests, and the "
        << "operator (manager) runs its controller.\n";
  }
  return 0;
}

}  // namespace rrgen
