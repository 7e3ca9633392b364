#include "cli/cli.hpp"

#include <cctype>
#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/cli_generate.hpp"
#include "cli/cli_init.hpp"
#include "backends/types/emit_types.hpp"
#include "load/inputs.hpp"
#include "model/model_dump.hpp"
#include "support/output.hpp"
#include "sema/sema.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

constexpr const char* kUsage = R"(usage: rrgen <command> [options]

Commands:
  generate  Generate a reconciler from a reconciler spec and CRDs: types, wiring, test factories,
            RBAC and a kustomize config/ tree (and, with --scaffold, the files you fill in).
  init      Create a new operator project (CMake + find_package(rrgen), a CRD, a spec, hooks, tests).
  types     Generate C++ types from CRD manifests and Kubernetes OpenAPI v3 documents.

Run 'rrgen <command> --help' for the options of a command.

Options:
  --help       Show this help.
  --version    Print the rrgen version.
)";

constexpr const char* kTypesUsage = R"(usage: rrgen types [--out DIR] [--namespace NS] [--depfile FILE] [--dump-model=json] FILE...

Reads CRD manifests (YAML, several documents and CRDs per file) and Kubernetes OpenAPI v3
documents (JSON, as served at /openapi/v3/apis/<group>/<version>) and writes one header and one
source per kind into DIR (default: the current directory), only where their content changed.

Options:
  --out DIR           Output directory.
  --namespace NS      Root C++ namespace (default: from the API group, e.g. monitoring_coreos_com;
                      'k8s' for OpenAPI documents). Each version gets its own namespace below it.
  --depfile FILE      Write a Make-style depfile listing the inputs of the outputs.
  --dump-model=json   Print the model as JSON to standard output (files are written only with --out).
  --aggregate NAME    Also write NAME.hpp (includes every generated header) and NAME.cpp (a unity
                      source with every generated source and a table of the kinds): a fixed
                      pair of outputs for build systems.
  --quiet             Do not print the summary line.
  --codec-only HEADER For rrgen's own runtime build (docs/runtime-schemas.md): write only the
                      codec (decode, encode, validate, apply_defaults, to_json, from_json,
                      operator==) of the definitions marked x-rrgen-cpp-type, whose structs
                      HEADER declares by hand, as <HEADER stem>_codec.cpp.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

int run_types(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string out_dir = ".", depfile, ns, dump, aggregate, codec_only;
  bool out_given = false, quiet = false;
  std::vector<std::string> files;
  ArgReader reader(args);
  while (reader.next()) {
    if (reader.is_flag("--help") || reader.is_flag("-h")) {
      out << kTypesUsage;
      return 0;
    }
    if (reader.is_flag("--quiet")) {
      quiet = true;
    } else if (reader.value("--out", out_dir)) {
      out_given = true;
    } else if (reader.value("--namespace", ns) || reader.value("--depfile", depfile) ||
               reader.value("--dump-model", dump) || reader.value("--aggregate", aggregate) ||
               reader.value("--codec-only", codec_only)) {
    } else if (reader.failed()) {
      return usage_error(err, reader.error());
    } else if (reader.is_option()) {
      return usage_error(err, "unknown option '" + reader.current() + "'");
    } else {
      files.push_back(reader.current());
    }
  }
  if (files.empty()) return usage_error(err, "no input files");
  if (aggregate.find_first_of("/\\") != std::string::npos) return usage_error(err, "--aggregate takes a file name, not a path");
  if (!dump.empty() && dump != "json") return usage_error(err, "--dump-model supports only 'json'");
  if (!codec_only.empty() && (!aggregate.empty() || !ns.empty()))
    return usage_error(err, "--codec-only takes its namespace from x-rrgen-cpp-type and writes one file: no --namespace or --aggregate");
  if (!codec_only.empty() && (codec_only.size() < 5 || codec_only.compare(codec_only.size() - 4, 4, ".hpp") != 0))
    return usage_error(err, "--codec-only names the header that declares the structs, e.g. rr/core/meta.hpp");
  if (!ns.empty()) {
    for (char c : ns)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'))
        return usage_error(err, "--namespace '" + ns + "' is not a C++ namespace name");
  }

  Diagnostics diags;
  SourceSet sources;
  InputSet inputs = read_inputs(sources, files, diags);
  Model model;
  if (!diags.has_errors()) model = build_model(inputs, SemaOptions{ns, codec_only}, diags);
  diags.print(err);
  if (diags.has_errors()) {
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }
  if (!dump.empty()) out << dump_model_json(model);
  if (!dump.empty() && !out_given) return 0;

  OutputSet files_out = emit_types(model, TypesOptions{kVersion});
  if (!aggregate.empty()) {
    emit_aggregate(model, aggregate, TypesOptions{kVersion}, files_out);
  }
  WriteStats stats;
  if (!write_outputs(files_out, out_dir, diags, stats) ||
      (!depfile.empty() && !write_depfile(depfile, files_out, out_dir, files, diags))) {
    diags.print(err);
    return 1;
  }
  if (!quiet) {
    std::size_t kinds = 0;
    for (const auto& u : model.units) kinds += u->kind ? 1 : 0;
    err << "rrgen: " << model.units.size() << " unit(s), " << kinds << " kind(s); " << stats.written << " file(s) written, "
        << stats.unchanged << " unchanged, " << stats.removed << " removed in " << out_dir << "\n";
  }
  return 0;
}

}  // namespace

int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  if (args.empty()) return usage_error(err, "no command");
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    out << kUsage;
    return 0;
  }
  if (cmd == "--version") {
    out << "rrgen " << kVersion << "\n";
    return 0;
  }
  const std::vector<std::string> rest(args.begin() + 1, args.end());
  if (cmd == "generate") return run_generate(rest, out, err);
  if (cmd == "init") return run_init(rest, out, err);
  if (cmd == "types") return run_types(rest, out, err);
  return usage_error(err, "unknown command '" + cmd + "'");
}

}  // namespace rrgen
