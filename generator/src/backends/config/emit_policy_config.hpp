// The admission policies part of config/ for a spec with `admissionPolicies:`:
//   policy/<name>.yaml           the ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) or
//                                MutatingAdmissionPolicy (v1beta1, the version 1.35 serves) and
//                                its binding "<name>-binding"
//   policy/kustomization.yaml    lists them
// emit_config lists ../policy in config/default. Policies need no RBAC at run time: the API
// server enforces them, not the manager.
#pragma once
#include <string>
#include <vector>

#include "model/reconciler.hpp"
#include "support/output.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

inline constexpr const char* kMutatingPolicyApiVersion = "admissionregistration.k8s.io/v1beta1";

// The policy's file, relative to config/: "policy/<name>.yaml".
std::string policy_file(const ResolvedAdmissionPolicy& policy);

// The policy and its binding, as written to its file.
std::vector<Yaml> policy_documents(const ResolvedAdmissionPolicy& policy);

// Adds the files above to `out` (nothing without policies).
void emit_policy_config(const ResolvedSpec& spec, OutputSet& out);

// What config/default adds: "../policy" when the spec has policies.
std::vector<std::string> policy_default_resources(const ResolvedSpec& spec);

}  // namespace rrgen
