// `rrgen types`: C++ types from CRD manifests and Kubernetes OpenAPI v3 documents.
#include "cli/cli_types.hpp"

#include <optional>
#include <ostream>
#include <string_view>

#include "backends/types/emit_apply.hpp"
#include "backends/types/emit_types.hpp"
#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "load/inputs.hpp"
#include "model/model_dump.hpp"
#include "sema/builtin_kinds.hpp"
#include "sema/sema.hpp"
#include "support/output.hpp"
#include "support/version.hpp"

namespace rrgen {
namespace {

constexpr const char* kTypesUsage =
    R"(usage: rrgen types [--out DIR] [--namespace NS] [--depfile FILE] [--dump-model=json] FILE...
       rrgen types --builtin --apply-configurations all|PATH,... [--out DIR] [--aggregate NAME [--shards N]]

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
  --shards N          With --aggregate: compile the units in N unity sources NAME_1.cpp ...
                      NAME_N.cpp (runs of unit sources in path order, balanced by size; a unit
                      over 5,000 lines of code is written in parts, unit.cpp, unit.part2.cpp ...,
                      which may go to different shards) and keep only the table of kinds in
                      NAME.cpp, so a large API builds in parallel and no translation unit grows
                      without bound. Always N files, some maybe empty.
  --source-part-lines N
                      Write a unit whose source has more than N lines (default 5000; 0: never)
                      in parts of about equal size, unit.cpp, unit.part2.cpp ..., each its own
                      translation unit (whole structs each).
  --apply-configurations all|PATH,...
                      Also write apply configurations (docs/runtime/38-apply-configurations.md):
                      <unit>_apply.hpp/.cpp for every unit ('all') or for the units named by path
                      (k8s/apps/v1/deployment) and every unit their structs reach; with
                      --aggregate, NAME_apply.cpp compiles them all in one unity source.
  --builtin           With --apply-configurations and no FILEs: only the apply configurations of
                      the runtime's built-in kinds (whose types rr::builtin holds), e.g.
                      --builtin --apply-configurations k8s/apps/v1/deployment,k8s/core/v1/service.
                      With --aggregate, NAME_apply.hpp declares their table of kinds,
                      NAME_apply_kinds() (rr/client/apply_kind_codec.hpp), which NAME_apply.cpp
                      defines; --shards N compiles the units and their rows in NAME_apply_1.cpp ...
                      NAME_apply_N.cpp and leaves NAME_apply.cpp only the joined table.
  --quiet             Do not print the summary line.
  --codec-only HEADER For rrgen's own runtime build (docs/runtime-schemas.md): write only the
                      codec (decode, encode, validate, apply_defaults, to_json, from_json,
                      operator==) of the definitions marked x-rrgen-cpp-type, whose structs
                      HEADER declares by hand, as <HEADER stem>_codec.cpp.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

constexpr const char* kApplyUsage = "--apply-configurations takes 'all' or unit paths separated by commas";

// --apply-configurations all|PATH,...; nullopt when a path is empty.
std::optional<ApplyConfigOptions> apply_options(std::string_view value) {
  ApplyConfigOptions apply{kVersion, {}};
  if (value == "all") return apply;
  while (true) {
    const auto comma = value.find(',');
    const std::string_view path = value.substr(0, comma);
    if (path.empty()) return std::nullopt;
    apply.units.emplace_back(path);
    if (comma == std::string_view::npos) return apply;
    value = value.substr(comma + 1);
  }
}

std::string unknown_unit(const std::string& path) {
  return "--apply-configurations: no unit '" + path +
         "' among the generated ones (a path such as k8s/apps/v1/deployment)";
}

// --shards N: 0 when absent, nullopt when N is not a number from 1 to 999.
std::optional<int> parse_shards(const std::string& value) {
  if (value.empty()) return 0;
  const bool digits = value.size() <= 3 && value.find_first_not_of("0123456789") == std::string::npos;
  const int shards = digits ? std::stoi(value) : 0;
  if (shards < 1) return std::nullopt;
  return shards;
}
std::string shards_usage(const std::string& value) {
  return "--shards takes a number from 1 to 999, not '" + value + "'";
}

// --builtin: only the apply configurations of the runtime's built-in kinds (rr::builtin holds
// their types), for the kinds an operator applies.
int run_builtin_apply(const Options& o, std::ostream& err) {
  if (!o.operands.empty()) return usage_error(err, "--builtin takes no input files");
  if (o.apply_configurations.empty())
    return usage_error(err, "--builtin writes apply configurations only: give --apply-configurations");
  if (!o.cpp_namespace.empty() || !o.codec_only.empty() || !o.dump_model.empty() || !o.depfile.empty())
    return usage_error(err, "--builtin takes only --out, --aggregate, --shards, --apply-configurations and --quiet");
  if (o.aggregate.find_first_of("/\\") != std::string::npos)
    return usage_error(err, "--aggregate takes a file name, not a path");
  const std::optional<int> shards = parse_shards(o.shards);
  if (!shards) return usage_error(err, shards_usage(o.shards));
  if (*shards > 0 && o.aggregate.empty()) return usage_error(err, "--shards needs --aggregate");
  const std::optional<ApplyConfigOptions> apply = apply_options(o.apply_configurations);
  if (!apply) return usage_error(err, kApplyUsage);
  const Model& model = builtin_model();
  if (const auto unknown = unknown_apply_units(model, apply->units); !unknown.empty())
    return usage_error(err, unknown_unit(unknown.front()));
  OutputSet files_out = emit_apply_configurations(model, *apply);
  const std::size_t units = files_out.files.size() / 2;
  if (!o.aggregate.empty()) emit_apply_kinds_aggregate(model, files_out, o.aggregate, kVersion, *shards, files_out);
  Diagnostics diags;
  WriteStats stats;
  if (!write_outputs(files_out, o.out_dir, diags, stats)) {
    diags.print(err);
    return 1;
  }
  if (!o.quiet)
    err << "rrgen: apply configurations of " << units << " built-in unit(s); " << stats.written << " file(s) written, "
        << stats.unchanged << " unchanged in " << o.out_dir << "\n";
  return 0;
}

}  // namespace

int run_types(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(
          args,
          {Flag::Out, Flag::Depfile, Flag::Namespace, Flag::Quiet, Flag::DumpModel, Flag::Aggregate, Flag::Shards,
           Flag::SourcePartLines, Flag::CodecOnly, Flag::ApplyConfigurations, Flag::Builtin},
          kTypesUsage, o, out, err))
    return *code;
  const std::string &out_dir = o.out_dir, &depfile = o.depfile, &ns = o.cpp_namespace, &dump = o.dump_model,
                    &aggregate = o.aggregate, &codec_only = o.codec_only;
  const std::vector<std::string>& files = o.operands;
  if (o.builtin) return run_builtin_apply(o, err);
  if (files.empty()) return usage_error(err, "no input files");
  if (aggregate.find_first_of("/\\") != std::string::npos) return usage_error(err, "--aggregate takes a file name, not a path");
  if (!dump.empty() && dump != "json") return usage_error(err, "--dump-model supports only 'json'");
  if (!o.shards.empty() && aggregate.empty()) return usage_error(err, "--shards needs --aggregate");
  const std::optional<int> parsed_shards = parse_shards(o.shards);
  if (!parsed_shards) return usage_error(err, shards_usage(o.shards));
  const int shards = *parsed_shards;
  TypesOptions types_options{kVersion};
  if (!o.source_part_lines.empty()) {
    const std::string& v = o.source_part_lines;
    if (v.size() > 7 || v.find_first_not_of("0123456789") != std::string::npos)
      return usage_error(err, "--source-part-lines takes a number of lines (0: never split), not '" + v + "'");
    types_options.source_part_lines = static_cast<std::size_t>(std::stoul(v));
  }
  if (!codec_only.empty() && (!aggregate.empty() || !ns.empty()))
    return usage_error(
        err,
        "--codec-only takes its namespace from x-rrgen-cpp-type and writes one file: no --namespace or --aggregate");
  if (!codec_only.empty() && (codec_only.size() < 5 || codec_only.compare(codec_only.size() - 4, 4, ".hpp") != 0))
    return usage_error(err, "--codec-only names the header that declares the structs, e.g. rr/core/meta.hpp");
  if (!ns.empty() && !is_cpp_namespace(ns)) return usage_error(err, "--namespace '" + ns + "' is not a C++ namespace name");
  std::optional<ApplyConfigOptions> apply;
  if (!o.apply_configurations.empty()) {
    if (!codec_only.empty()) return usage_error(err, "--codec-only writes no apply configurations");
    apply = apply_options(o.apply_configurations);
    if (!apply) return usage_error(err, kApplyUsage);
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
  if (!dump.empty() && !o.out_given) return 0;

  if (apply) {
    if (const auto unknown = unknown_apply_units(model, apply->units); !unknown.empty())
      return usage_error(err, unknown_unit(unknown.front()));
  }
  OutputSet files_out = emit_types(model, types_options);
  if (!aggregate.empty()) {
    emit_aggregate(model, aggregate, types_options, files_out, shards);
  }
  if (apply) {
    const OutputSet apply_out = emit_apply_configurations(model, *apply);
    if (!aggregate.empty()) emit_apply_aggregate(apply_out, aggregate, kVersion, files_out);
    files_out.files.insert(files_out.files.end(), apply_out.files.begin(), apply_out.files.end());
  }
  WriteStats stats;
  if (!write_outputs(files_out, out_dir, diags, stats) ||
      (!depfile.empty() && !write_depfile(depfile, files_out, out_dir, files, diags))) {
    diags.print(err);
    return 1;
  }
  if (!o.quiet) {
    std::size_t kinds = 0;
    for (const auto& u : model.units) kinds += u->kind ? 1 : 0;
    err << "rrgen: " << model.units.size() << " unit(s), " << kinds << " kind(s); " << stats.written << " file(s) written, "
        << stats.unchanged << " unchanged, " << stats.removed << " removed in " << out_dir << "\n";
  }
  return 0;
}

}  // namespace rrgen
