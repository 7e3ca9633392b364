// `rrgen openapi-facts`: the facts of Kubernetes' OpenAPI v3 documents, without their prose, as one
// OpenAPI v3 document per group-version (docs/kubernetes-api-facts.md).
#include "cli/cli_openapi_facts.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "load/openapi_facts.hpp"
#include "load/yaml_load.hpp"
#include "support/output.hpp"

namespace rrgen {
namespace {

constexpr const char* kOpenApiFactsUsage = R"(usage: rrgen openapi-facts --out DIR [--proto-root DIR] [--quiet] FILE...

Reads the OpenAPI v3 documents a Kubernetes API server serves (/openapi/v3/api/v1 and
/openapi/v3/apis/<group>/<version>, JSON or YAML) and writes their facts into DIR, without
descriptions or other prose: of the schemas, names, types, formats, required lists, enums,
defaults, bounds, nullable, $ref/allOf/items/additionalProperties and every x-kubernetes-*
extension; of `paths`, each operation's x-kubernetes-action and x-kubernetes-group-version-kind.

DIR gets one OpenAPI v3 document per group-version: core-v1.yaml, apps-v1.yaml,
networking.k8s.io-v1.yaml ... Each definition is written once, into the file of its group-version;
the ones of no group-version given (apimachinery's) go into apimachinery.yaml. A definition that
two inputs give differently is an error. Files are written only where their content changed, and
the ones a previous run wrote that this run does not are removed.

With --proto-root, each property of a definition also gets its protobuf field's facts
(x-rrgen-protobuf: field number, type, repeated, map key), read from Kubernetes' generated.proto
files under that directory (a protoc include root: k8s.io/api/apps/v1/generated.proto ...). A
property without a field, a field without a property and a definition without a message are
warnings.

Options:
  --out DIR          Output directory (required).
  --proto-root DIR   Kubernetes' .proto files (every *.proto under DIR is read).
  --quiet            Do not print the summary line.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

// Every *.proto under `root`, in path order, parsed and resolved (errors in `diags`).
std::map<std::string, ProtoMessage> read_proto_root(const std::string& root, SourceSet& sources, Diagnostics& diags) {
  namespace fs = std::filesystem;
  std::vector<std::string> paths;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file() && it->path().extension() == ".proto") paths.push_back(it->path().string());
  if (ec || paths.empty()) {
    diags.error({intern_file_name(root)}, "proto-root", ec ? "cannot read: " + ec.message() : "no *.proto files");
    return {};
  }
  std::sort(paths.begin(), paths.end());
  std::vector<ProtoFile> files;
  for (const auto& path : paths)
    if (const std::string* name = sources.read(path, diags))
      files.push_back(read_proto(name, sources.content(name), diags));
  return diags.has_errors() ? std::map<std::string, ProtoMessage>{} : resolve_proto_types(std::move(files), diags);
}

}  // namespace

int run_openapi_facts(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(args, {Flag::Out, Flag::ProtoRoot, Flag::Quiet}, kOpenApiFactsUsage, o, out, err))
    return *code;
  if (!o.out_given) return usage_error(err, "--out DIR is required");
  if (o.operands.empty()) return usage_error(err, "no input files");

  Diagnostics diags;
  SourceSet sources;
  std::vector<std::vector<Node>> loaded;
  for (const auto& path : o.operands) {
    if (const std::string* name = sources.read(path, diags))
      loaded.push_back(load_yaml(name, sources.content(name), diags));
  }
  std::vector<const Node*> documents;
  for (const auto& file : loaded)
    for (const Node& doc : file)
      if (!doc.is_null()) documents.push_back(&doc);  // an empty document between '---'
  std::map<std::string, ProtoMessage> protos;
  if (!o.proto_root.empty()) protos = read_proto_root(o.proto_root, sources, diags);
  OpenApiFacts facts;
  if (!diags.has_errors()) facts = openapi_facts(documents, diags, o.proto_root.empty() ? nullptr : &protos);
  diags.print(err);
  if (diags.has_errors()) {
    err << "rrgen: " << diags.error_count() << " error(s); no files written\n";
    return 1;
  }
  WriteStats stats;
  if (!write_outputs(facts.files, o.out_dir, diags, stats)) {
    diags.print(err);
    return 1;
  }
  if (!o.quiet) {
    err << "rrgen: " << facts.documents << " document(s), " << facts.definitions << " definition(s) (" << facts.repeated
        << " repeated occurrence(s) written once); " << stats.written << " file(s) written, " << stats.unchanged
        << " unchanged, " << stats.removed << " removed in " << o.out_dir << "\n";
  }
  return 0;
}

}  // namespace rrgen
