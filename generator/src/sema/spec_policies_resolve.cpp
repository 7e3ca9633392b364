#include "sema/spec_policies_resolve.hpp"

#include <utility>

namespace rrgen {
namespace {

Yaml resource_rule(const std::string& group, const std::vector<std::string>& versions,
                   const std::vector<std::string>& resources, const std::vector<std::string>& operations) {
  Yaml rule = Yaml::map();
  rule.set("apiGroups", Yaml::strings({group}));
  rule.set("apiVersions", Yaml::strings(versions));
  rule.set("operations", Yaml::strings(operations));
  rule.set("resources", Yaml::strings(resources));
  return rule;
}

void set_if_any(Yaml& into, const char* key, const Yaml& items) {
  if (!items.empty()) into.set(key, items);
}

// The members in the API's Go field order (ValidatingAdmissionPolicySpec,
// MutatingAdmissionPolicySpec), as the API server writes them back.
Yaml policy_spec(const SpecAdmissionPolicy& p, Yaml match_constraints) {
  Yaml spec = Yaml::map();
  spec.set("matchConstraints", std::move(match_constraints));
  if (p.mutating) {
    set_if_any(spec, "variables", p.variables);
    spec.set("mutations", p.mutations);
    spec.set("failurePolicy", p.failure_policy);
    set_if_any(spec, "matchConditions", p.match_conditions);
    spec.set("reinvocationPolicy", "Never");
  } else {
    spec.set("validations", p.validations);
    spec.set("failurePolicy", p.failure_policy);
    set_if_any(spec, "matchConditions", p.match_conditions);
    set_if_any(spec, "variables", p.variables);
  }
  return spec;
}

}  // namespace

std::vector<ResolvedAdmissionPolicy> resolve_policies(const std::vector<SpecAdmissionPolicy>& policies,
                                                      const ResolvedKind* resource, Diagnostics& diags) {
  std::vector<ResolvedAdmissionPolicy> out;
  for (const SpecAdmissionPolicy& p : policies) {
    if (!p.documents.empty()) {  // a file written by hand: nothing to decide
      ResolvedAdmissionPolicy r;
      r.name = p.name;
      r.mutating = p.mutating;
      r.documents = p.documents;
      for (const SpecPolicyTest& t : p.tests) r.tests.push_back({t.object, t.allowed, t.message, t.expect});
      out.push_back(std::move(r));
      continue;
    }
    Yaml rules = Yaml::seq();
    for (const SpecPolicyRule& r : p.resources)
      rules.push(resource_rule(r.group, r.versions, r.resources, r.operations));
    if (p.resources.empty()) {
      if (!resource) {
        diags.error(p.location, "spec-missing-key",
                    "policy '" + p.name + "' needs 'resources': a duck resource is no one kind to match");
        continue;
      }
      rules.push(resource_rule(resource->group, {resource->version}, {resource->plural}, {"CREATE", "UPDATE"}));
    }
    ResolvedAdmissionPolicy r;
    r.name = p.name;
    r.mutating = p.mutating;
    r.policy_spec = policy_spec(p, Yaml::map().set("resourceRules", std::move(rules)));
    r.validation_actions = p.validation_actions.empty() ? std::vector<std::string>{"Deny"} : p.validation_actions;
    for (const SpecPolicyTest& t : p.tests) r.tests.push_back({t.object, t.allowed, t.message, t.expect});
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace rrgen
