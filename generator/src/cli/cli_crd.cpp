// `rrgen crd`: the headers read with Clang (crd/type_reader), the CRDs decided (crd/crd_build),
// written atomically and only when changed (support/output).
#include "cli/cli_crd.hpp"

#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "crd/crd_build.hpp"
#include "crd/type_reader.hpp"
#include "support/k8s_names.hpp"
#include "support/output.hpp"

namespace rrgen {
namespace {

constexpr const char* kCrdUsage =
    R"(usage: rrgen crd --group GROUP [--version VERSION] [--scope Namespaced|Cluster] [-I DIR]... [-D NAME[=VALUE]]... [-std=c++20] [--out DIR] [--stem NAME] [--depfile FILE] [--quiet] HEADER...

Reads the C++ structs of HEADER... with Clang and writes one CustomResourceDefinition per kind
into DIR, as controller-gen does from Go types: GROUP_PLURAL.yaml (web.example.com_webapps.yaml),
written atomically and only when its content changed. A kind is a struct marked
// +kubebuilder:object:root=true, or one with `rr::ObjectMeta metadata` and a `spec` or `status`
member; its members become properties (JSON names in camelCase, std::optional / rr::Optional
members optional, the others required), and kubebuilder's markers in the comments above a member
or a struct add validation, defaults, list types, printer columns and subresources.
docs/crd-from-types.md has the whole mapping.

Options:
  --group GROUP     The API group of the kinds (required), e.g. web.example.com.
  --version VERSION The version of a kind declared outside a version namespace (default v1).
                    A struct in a namespace named like a version (v1, v1beta1) is that version;
                    one kind in several such namespaces is one CRD with several versions.
  --scope SCOPE     Namespaced (default) or Cluster, for kinds without +kubebuilder:resource:scope.
  -I DIR, -isystem DIR, -D NAME[=VALUE], -std=STD
                    As for the compiler (default -std=c++20); the rr runtime's headers must be
                    found for rr::ObjectMeta and the other runtime types.
  --out DIR         Output directory (default: the current directory).
  --stem NAME       Write every CRD into one file, DIR/NAME.yaml (documents separated by ---), as
                    build systems want a fixed output; add_reconciler(TYPES_HEADER) uses it.
  --depfile FILE    Write a Make-style depfile naming every file the parse read.
  --quiet           Do not print the summary line.

Diagnostics: a member rrgen crd cannot map (a pointer, a union, std::variant, an unsigned 64-bit
integer, a type it cannot see) is an error at the member [crd-unsupported-type]; an unknown
marker [crd-marker-unknown], a malformed one [crd-marker-invalid], one on a member of the wrong
type [crd-marker-type] or in the wrong place [crd-marker-misplaced] is an error at the marker.

Exit status: 0 success, 1 errors (nothing is written), 2 usage error.
)";

bool is_version(const std::string& v) {
  if (v.size() < 2 || v[0] != 'v' || v[1] < '1' || v[1] > '9') return false;
  std::size_t i = 1;
  while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
  if (i == v.size()) return true;
  std::size_t rest = v.compare(i, 5, "alpha") == 0 ? i + 5 : v.compare(i, 4, "beta") == 0 ? i + 4 : std::string::npos;
  return rest != std::string::npos && rest < v.size() && v[rest] >= '1' && v[rest] <= '9' &&
         v.find_first_not_of("0123456789", rest) == std::string::npos;
}

}  // namespace

int run_crd(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  // The compiler's options first (-Idir is one argument, -I dir two), the rest as every subcommand.
  std::vector<std::string> compile_args, rest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool separate = a == "-I" || a == "-isystem" || a == "-D";
    if (separate) {
      if (i + 1 >= args.size()) return usage_error(err, "option '" + a + "' needs a value");
      compile_args.push_back(a);
      compile_args.push_back(args[++i]);
    } else if ((a.rfind("-I", 0) == 0 || a.rfind("-D", 0) == 0) && a.size() > 2) {
      compile_args.push_back(a);
    } else if (a.rfind("-std=", 0) == 0) {
      compile_args.push_back(a);
    } else {
      rest.push_back(a);
    }
  }
  Options o;
  if (auto code = parse_options(
          rest, {Flag::Out, Flag::Depfile, Flag::Quiet, Flag::Group, Flag::Version, Flag::Scope, Flag::Stem}, kCrdUsage,
          o, out, err))
    return *code;
  if (o.operands.empty()) return usage_error(err, "no headers given");
  if (o.group.empty())
    return usage_error(err, "--group is required (the API group of the kinds, e.g. web.example.com)");
  if (!is_dns1123_subdomain(o.group)) return usage_error(err, "--group '" + o.group + "' is not a DNS subdomain");
  CrdOptions options;
  options.group = o.group;
  if (!o.version.empty()) options.version = o.version;
  if (!is_version(options.version))
    return usage_error(err, "--version '" + options.version + "' is not a Kubernetes version (v1, v1beta1, v2alpha1)");
  if (!o.scope.empty()) options.scope = o.scope;
  if (o.stem.find_first_of("/\\") != std::string::npos || o.stem == "." || o.stem == "..")
    return usage_error(err, "--stem takes a file name without its .yaml, not a path");
  if (options.scope != "Namespaced" && options.scope != "Cluster")
    return usage_error(err, "--scope is Namespaced or Cluster, not '" + options.scope + "'");

  Diagnostics diags;
  std::vector<std::string> read_files;
  const CxxModel model = read_cxx_types(TypeReaderInput{o.operands, compile_args, {}}, diags, &read_files);
  std::vector<BuiltCrd> crds;
  if (!diags.has_errors()) crds = build_crds(model, options, diags);
  diags.print(err);
  if (diags.has_errors()) {
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }
  const OutputSet files = crd_files(crds, o.stem.empty() ? std::string() : o.stem + ".yaml");
  Diagnostics write_diags;
  WriteStats stats;
  if (!write_outputs(files, o.out_dir, write_diags, stats) ||
      (!o.depfile.empty() && !write_depfile(o.depfile, files, o.out_dir, read_files, write_diags))) {
    write_diags.print(err);
    return 1;
  }
  if (!o.quiet) {
    err << "rrgen: " << crds.size() << " CRD(s); " << stats.written << " file(s) written, " << stats.unchanged
        << " unchanged, " << stats.removed << " removed in " << o.out_dir << "\n";
  }
  return 0;
}

}  // namespace rrgen
