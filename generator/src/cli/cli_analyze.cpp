// `rrgen analyze`: the calls (analyze/call_finder), the markers (analyze/markers), with --spec the
// spec's rules (model/rbac_derive), merged and checked (analyze/analysis), printed as role YAML or
// as a report.
#include "cli/cli_analyze.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <set>
#include <sstream>

#include "analyze/analysis.hpp"
#include "analyze/call_finder.hpp"
#include "analyze/markers.hpp"
#include "analyze/report.hpp"
#include "backends/rbac/emit_rbac.hpp"
#include "cli/cli_args.hpp"
#include "cli/generate_pipeline.hpp"
#include "cli/options.hpp"
#include "load/spec_reader.hpp"
#include "model/rbac_derive.hpp"
#include "sema/builtin_kinds.hpp"

namespace rrgen {
namespace {

constexpr const char* kAnalyzeUsage =
    R"(usage: rrgen analyze [--spec FILE] [--stem NAME] [-p BUILD_DIR] [--format=yaml|report] [--explain] [--out FILE] [--depfile FILE] FILE...

Parses the C++ sources FILE... with Clang, using their commands from BUILD_DIR/compile_commands.json,
finds every API call they make through the rr runtime (client and Api<T> verbs, status writes,
tracker reads and registrations, events, finalizers) with the kind each addresses, reads the
// +kubebuilder:rbac markers in their comments, and prints the RBAC rules these need, normalised as
controller-gen does. With --spec, the rules the spec derives are merged in, and every call must be
granted by the spec's rules or a marker. FILE operands ending in .yaml, .yml or .json are the CRDs
the spec refers to. docs/analyze.md describes what is found and what cannot be.

Options:
  --spec FILE       The reconciler spec: its rules are merged, and calls are checked against them.
  --stem NAME       As for rrgen generate: the app name the roles are named after (with --spec).
  -p BUILD_DIR      The directory of compile_commands.json (default: searched upwards from FILE).
  --format FORMAT   yaml (default): the normalised Role/ClusterRole manifests;
                    report: each rule with the spec rules, markers and calls behind it.
  --explain         The same as --format=report.
  --out FILE        Write the result to FILE (only when it changed) instead of standard output.
  --depfile FILE    With --out: a Make-style depfile naming every file the analysis read.

Diagnostics: a call no rule grants is an error [rbac-ungranted-call] (with --spec or markers);
a marker or rbac: entry no call uses is a warning [rbac-unused-rule]; a call whose kind is chosen
at run time is a warning [rbac-unresolved-call] unless a marker grants its verb.

Exit status: 0 success, 1 errors (nothing is written), 2 usage error.
)";

bool is_manifest(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".yaml" || ext == ".yml" || ext == ".json";
}

std::string rule_text(const SpecRule& r) {
  std::string out = "rbac: entry";
  if (!r.resources.empty()) out += " (" + r.resources.front() + (r.resources.size() > 1 ? ", ..." : "") + ")";
  return out;
}

// The markers of the FILEs and of the hooks' own files the parse read (their headers), each file
// once, into `into` as rules of the role `role_name` (or of a Role of the marker's namespace).
// True when there is any.
bool read_markers(SourceSet& sources, const std::vector<std::string>& files, const std::vector<std::string>& user_files,
                  const std::string& role_name, std::vector<WrittenRule>& into, Diagnostics& diags) {
  std::set<std::filesystem::path> seen;
  bool any = false;
  for (const std::vector<std::string>* list : {&files, &user_files}) {
    for (const std::string& f : *list) {
      std::error_code ec;
      if (!seen.insert(std::filesystem::weakly_canonical(f, ec)).second) continue;
      const std::string* name = sources.read(f, diags);
      if (!name) continue;
      for (RbacMarker& m : read_rbac_markers(name, sources.content(name), diags)) {
        into.push_back({m.location, m.text, RoleKey{m.namespace_, role_name}, m.rule, true});
        any = true;
      }
    }
  }
  return any;
}

bool write_if_changed(const std::string& path, const std::string& content, std::ostream& err) {
  std::ifstream in(path, std::ios::binary);
  if (in) {
    std::ostringstream have;
    have << in.rdbuf();
    if (have.str() == content) return true;
  }
  std::error_code ec;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) {
    err << "rrgen: error: cannot write '" << path << "'\n";
    return false;
  }
  return true;
}

int analyze(const Options& args, std::ostream& out, std::ostream& err) {
  Diagnostics diags;
  SourceSet sources;
  std::vector<std::string> files;
  GenerateInput input;
  for (const std::string& f : args.operands) {
    if (is_manifest(f)) {
      input.crds.push_back(sources.read(f, diags));
    } else {
      files.push_back(f);
    }
  }

  AnalysisInput analysis_input;
  bool core_v1_events = false;  // the spec's `events: core/v1`
  DeployNames names;
  names.manager_role = "manager-role";
  std::vector<ResolvedKind> known = builtin_kinds();
  if (!args.spec.empty()) {
    input.spec = read_spec(sources, args.spec, diags);
    input.stem = args.stem;  // the names of the roles, as `rrgen generate --stem` gives them
    Model model;
    const std::optional<ResolvedSpec> spec = resolve_inputs(sources, input, model, diags);
    if (!spec) {
      diags.print(err);
      err << "rrgen: " << diags.error_count() << " error(s) in the spec; nothing analysed\n";
      return 1;
    }
    names = deploy_names(*spec);
    analysis_input.spec_sources = rbac_sources(*spec);
    const bool namespaced = spec->scope == ReconcilerScope::Namespace;
    analysis_input.calls_role = RoleKey{namespaced ? names.namespace_ : std::string(), names.manager_role};
    // `namespaces:`: the manager's Roles are in the listed namespaces, not in the deploy namespace.
    if (namespaced) {
      for (const std::string& ns : spec->namespaces) analysis_input.namespace_roles.push_back({ns, names.manager_role});
    }
    if (!analysis_input.namespace_roles.empty()) analysis_input.calls_role = analysis_input.namespace_roles.front();
    core_v1_events = spec->core_v1_events;
    analysis_input.excluded_role = RoleKey{names.namespace_, names.leader_election_role};
    for (const SpecRule& r : input.spec->rbac) {
      PolicyRule rule{r.api_groups, r.resources, r.resource_names, r.verbs, r.non_resource_urls};
      analysis_input.written.push_back({r.location, rule_text(r), analysis_input.calls_role, std::move(rule), false});
    }
    known.insert(known.end(), spec->kinds.begin(), spec->kinds.end());
  } else {
    analysis_input.calls_role = RoleKey{"", names.manager_role};
  }
  analysis_input.cluster_calls_role = RoleKey{"", names.manager_role};

  FoundCalls found = find_api_calls(CallFinderInput{files, args.build_dir, {}}, diags);
  const bool any_marker = read_markers(sources, files, found.user_files, names.manager_role, analysis_input.written,
                                       diags);
  analysis_input.check_coverage = !args.spec.empty() || any_marker;
  resolve_plurals(found.calls, known);
  follow_events_api(found.calls, core_v1_events);
  analysis_input.calls = std::move(found.calls);
  const Analysis analysis = analyze_rules(analysis_input, diags);
  diags.print(err);
  if (diags.has_errors()) {
    err << "rrgen: " << diags.error_count() << " error(s); no rules written\n";
    return 1;
  }

  std::string text;
  if (args.format == "report" || args.explain) {
    text = analysis_report(analysis);
  } else {
    RoleSet roles = analysis.roles;
    roles.roles.erase(analysis_input.excluded_role);
    std::vector<std::string> origins;
    for (const auto& entry : roles.roles) {
      for (const std::string& o : entry.second.origins) {
        if (std::find(origins.begin(), origins.end(), o) == origins.end()) origins.push_back(o);
      }
    }
    std::string comment = "Rules found by rrgen analyze: ";
    for (std::size_t i = 0; i < origins.size(); ++i) comment += (i ? "; " : "") + origins[i];
    text = role_manifests(roles, names, comment + ". Normalised as controller-gen does (docs/analyze.md).");
  }
  if (args.out_dir.empty() || !args.out_given) {
    out << text;
    return 0;
  }
  if (!write_if_changed(args.out_dir, text, err)) return 1;
  if (!args.depfile.empty()) {
    std::vector<std::string> inputs = found.read_files;
    if (!args.spec.empty()) inputs.push_back(args.spec);
    for (const std::string& f : args.operands) inputs.push_back(f);
    const std::filesystem::path target(args.out_dir);
    OutputSet outputs{{{target.filename().string(), text}}};
    Diagnostics write_diags;
    if (!write_depfile(args.depfile, outputs, target.parent_path().string(), inputs, write_diags)) {
      write_diags.print(err);
      return 1;
    }
  }
  return 0;
}

}  // namespace

int run_analyze(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err) {
  Options args;
  args.out_dir.clear();
  if (auto code = parse_options(
          argv, {Flag::Spec, Flag::Stem, Flag::BuildDir, Flag::Format, Flag::Explain, Flag::Out, Flag::Depfile},
          kAnalyzeUsage, args, out, err))
    return *code;
  if (!args.format.empty() && args.format != "yaml" && args.format != "report") {
    return usage_error(err, "--format must be yaml or report, not '" + args.format + "'");
  }
  bool any_source = false;
  for (const std::string& f : args.operands) any_source = any_source || !is_manifest(f);
  if (!any_source) return usage_error(err, "analyze needs the C++ sources to read (FILE...)");
  if (!args.depfile.empty() && !args.out_given) return usage_error(err, "--depfile needs --out FILE");
  return analyze(args, out, err);
}

}  // namespace rrgen
