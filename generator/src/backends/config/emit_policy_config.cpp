#include "backends/config/emit_policy_config.hpp"

#include <utility>

namespace rrgen {
namespace {

Yaml named(const char* api_version, const char* kind, const std::string& name) {
  Yaml doc = Yaml::map();
  doc.set("apiVersion", api_version);
  doc.set("kind", kind);
  doc.set("metadata", Yaml::map().set("name", name));
  return doc;
}

}  // namespace

std::string policy_file(const ResolvedAdmissionPolicy& policy) { return "policy/" + policy.name + ".yaml"; }

std::vector<Yaml> policy_documents(const ResolvedAdmissionPolicy& p) {
  if (!p.documents.empty()) return p.documents;
  const char* api_version = p.mutating ? kMutatingPolicyApiVersion : "admissionregistration.k8s.io/v1";
  Yaml policy = named(api_version, p.mutating ? "MutatingAdmissionPolicy" : "ValidatingAdmissionPolicy", p.name);
  policy.set("spec", p.policy_spec);
  Yaml binding_spec = Yaml::map().set("policyName", p.name);
  if (!p.mutating) binding_spec.set("validationActions", Yaml::strings(p.validation_actions));
  Yaml binding = named(api_version, p.mutating ? "MutatingAdmissionPolicyBinding" : "ValidatingAdmissionPolicyBinding",
                       p.name + "-binding");
  binding.set("spec", std::move(binding_spec));
  return {std::move(policy), std::move(binding)};
}

void emit_policy_config(const ResolvedSpec& spec, OutputSet& out) {
  if (spec.policies.empty()) return;
  std::vector<std::string> files;
  for (const ResolvedAdmissionPolicy& p : spec.policies) {
    const std::string path = policy_file(p);
    files.push_back(path.substr(path.find('/') + 1));
    out.files.push_back(
        {"config/" + path, manifest_file(policy_documents(p), "An admission policy the operator ships, and its binding "
                                                              "(the spec's admissionPolicies).")});
  }
  out.files.push_back({"config/policy/kustomization.yaml", manifest_file({kustomization(files)})});
}

std::vector<std::string> policy_default_resources(const ResolvedSpec& spec) {
  if (spec.policies.empty()) return {};
  return {"../policy"};
}

}  // namespace rrgen
