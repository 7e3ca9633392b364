#include "cli/project_config.hpp"

#include <set>
#include <utility>

#include "backends/rbac/emit_rbac.hpp"
#include "model/rbac_derive.hpp"
#include "support/generate_options.hpp"
#include "support/version.hpp"

namespace rrgen {

namespace {

// What one manager Deployment has once: the kinds must agree on it. The first kind is the
// reference; each difference is reported at the spec that differs.
bool same_deployment(const ResolvedSpec& first, const ResolvedSpec& other, Diagnostics& diags) {
  const auto differs = [&](const std::string& key, const std::string& mine, const std::string& theirs) {
    diags.error(other.location, "project-deploy-mismatch",
                "the reconciler " + other.name + " has " + key + " " + mine + ", the reconciler " + first.name + " (" +
                    first.file + ") has " + theirs +
                    ": the kinds of a project run in one manager, so they must agree on it");
  };
  const std::size_t before = diags.error_count();
  if (other.image != first.image) differs("image", "'" + other.image + "'", "'" + first.image + "'");
  if (other.replicas != first.replicas)
    differs("replicas", std::to_string(other.replicas), std::to_string(first.replicas));
  if (other.deploy_namespace != first.deploy_namespace) {
    const auto shown = [](const std::string& ns) {
      return ns.empty() ? std::string("no deployNamespace") : "'" + ns + "'";
    };
    differs("deployNamespace", shown(other.deploy_namespace), shown(first.deploy_namespace));
  }
  const auto metrics = [](const ResolvedMetrics& m) {
    return std::string("{secure: ") + (m.secure ? "true" : "false") +
           ", serviceMonitor: " + (m.service_monitor ? "true" : "false") +
           ", networkPolicy: " + (m.network_policy ? "true" : "false") + "}";
  };
  if (metrics(other.metrics) != metrics(first.metrics))
    differs("metrics", metrics(other.metrics), metrics(first.metrics));
  return diags.error_count() == before;
}

}  // namespace

std::optional<OutputSet> project_config(const SourceSet& sources, std::vector<GenerateInput> kinds,
                                        const std::string& project, Diagnostics& diags) {
  std::vector<ResolvedSpec> specs;
  std::vector<ConfigCrdFile> crds;
  for (GenerateInput& input : kinds) {
    // The project's name for every kind: the deploy names (namespace, ServiceAccount, roles,
    // Deployment) derive from the stem, so every kind's rules land in the same roles.
    input.stem = project;
    Model model;
    std::optional<ResolvedSpec> spec = resolve_inputs(sources, input, model, diags);
    if (!spec) continue;
    for (ConfigCrdFile& crd : crd_files_of(sources, input.crds)) {
      bool seen = false;
      for (const ConfigCrdFile& have : crds) seen = seen || (have.name == crd.name && have.content == crd.content);
      if (!seen) crds.push_back(std::move(crd));
    }
    specs.push_back(std::move(*spec));
  }
  if (diags.has_errors() || specs.empty()) return std::nullopt;

  // The reference spec: the one kind with webhooks (one webhook server per manager), else the first.
  std::size_t base = 0, with_webhooks = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (!specs[i].webhooks) continue;
    if (++with_webhooks > 1) {
      diags.error(specs[i].location, "project-webhooks",
                  "the reconcilers " + specs[base].name + " and " + specs[i].name +
                      " both have webhooks: a project's deploy tree has one webhook configuration, for one kind");
    }
    base = i;
  }
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (i != base) same_deployment(specs[base], specs[i], diags);
  }
  if (diags.has_errors()) return std::nullopt;

  ResolvedSpec manager = specs[base];
  std::vector<RuleSource> rules;
  std::set<std::string> policy_names;
  manager.policies.clear();
  for (const ResolvedSpec& spec : specs) {
    if (manager.leader_election_id.empty()) manager.leader_election_id = spec.leader_election_id;
    for (RuleSource& source : rbac_sources(spec)) {
      source.origin += " (" + spec.name + ")";
      rules.push_back(std::move(source));
    }
    for (const ResolvedAdmissionPolicy& policy : spec.policies) {
      if (!policy_names.insert(policy.name).second) {
        diags.error(spec.location, "project-policy-name",
                    "the reconciler " + spec.name + " ships an admission policy named '" + policy.name +
                        "', as another kind of the project does: the project deploys them side by side");
      }
      manager.policies.push_back(policy);
    }
  }
  if (diags.has_errors()) return std::nullopt;

  OutputSet out = emit_rbac_roles(manager, merge_rule_sources(rules));
  append(out, emit_config(manager, crds, GenerateOptions{kVersion}));
  if (!add_install_yaml(out, diags)) return std::nullopt;
  return out;
}

}  // namespace rrgen
