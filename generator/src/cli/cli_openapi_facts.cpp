// `rrgen openapi-facts`: the facts of Kubernetes' OpenAPI v3 documents, without their prose, as one
// OpenAPI v3 document per group-version (docs/kubernetes-api-facts.md).
#include "cli/cli_openapi_facts.hpp"

#include <ostream>

#include "cli/cli_args.hpp"
#include "cli/options.hpp"
#include "load/openapi_facts.hpp"
#include "load/yaml_load.hpp"
#include "support/output.hpp"

namespace rrgen {
namespace {

constexpr const char* kOpenApiFactsUsage = R"(usage: rrgen openapi-facts --out DIR [--quiet] FILE...

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

Options:
  --out DIR   Output directory (required).
  --quiet     Do not print the summary line.

Exit status: 0 success, 1 errors in the input (nothing is written), 2 usage error.
)";

}  // namespace

int run_openapi_facts(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Options o;
  if (auto code = parse_options(args, {Flag::Out, Flag::Quiet}, kOpenApiFactsUsage, o, out, err)) return *code;
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
  OpenApiFacts facts;
  if (!diags.has_errors()) facts = openapi_facts(documents, diags);
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
