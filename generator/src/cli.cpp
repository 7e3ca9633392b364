#include "cli.hpp"

#include <cctype>
#include <ostream>

#include "emit_types.hpp"
#include "inputs.hpp"
#include "model_dump.hpp"
#include "output.hpp"
#include "sema.hpp"
#include "version.hpp"

namespace rrgen {
namespace {

constexpr const char* kUsage = R"(usage: rrgen <command> [options]

Commands:
  types     Generate C++ types from CRD manifests and Kubernetes OpenAPI v3 documents.

Run 'rrgen types --help' for the options of a command.

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

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

int usage_error(std::ostream& err, const std::string& message) {
  err << "rrgen: error: " << message << "\n"
      << "Try 'rrgen --help'.\n";
  return 2;
}

int run_types(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  std::string out_dir = ".", depfile, ns, dump, aggregate;
  bool out_given = false, quiet = false;
  std::vector<std::string> files;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name, std::string& into) -> bool {
      const std::string flag = std::string("--") + name;
      if (a == flag) {
        if (i + 1 >= args.size()) return false;
        into = args[++i];
        return true;
      }
      if (a.rfind(flag + "=", 0) == 0) {
        into = a.substr(flag.size() + 1);
        return true;
      }
      return false;
    };
    if (a == "--help" || a == "-h") {
      out << kTypesUsage;
      return 0;
    } else if (a == "--quiet") {
      quiet = true;
    } else if (value("out", out_dir)) {
      out_given = true;
    } else if (value("namespace", ns) || value("depfile", depfile) || value("dump-model", dump) ||
               value("aggregate", aggregate)) {
    } else if (a == "--out" || a == "--namespace" || a == "--depfile" || a == "--dump-model" || a == "--aggregate") {
      return usage_error(err, "option '" + a + "' needs a value");
    } else if (a.size() > 1 && a[0] == '-') {
      return usage_error(err, "unknown option '" + a + "'");
    } else {
      files.push_back(a);
    }
  }
  if (files.empty()) return usage_error(err, "no input files");
  if (aggregate.find_first_of("/\\") != std::string::npos) return usage_error(err, "--aggregate takes a file name, not a path");
  if (!dump.empty() && dump != "json") return usage_error(err, "--dump-model supports only 'json'");
  if (!ns.empty()) {
    for (char c : ns)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == ':'))
        return usage_error(err, "--namespace '" + ns + "' is not a C++ namespace name");
  }

  Diagnostics diags;
  SourceSet sources;
  InputSet inputs = read_inputs(sources, files, diags);
  Model model;
  if (!diags.has_errors()) model = build_model(inputs, SemaOptions{ns}, diags);
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
  if (cmd == "types") return run_types(rest, out, err);
  return usage_error(err, "unknown command '" + cmd + "'");
}

}  // namespace rrgen
