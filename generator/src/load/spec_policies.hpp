// The `admissionPolicies:` section of a reconciler spec (docs/reconciler-spec.md#admission-policies):
// the ValidatingAdmissionPolicies and MutatingAdmissionPolicies an operator ships, with examples
// its generated tests run. Kept apart from spec_reader.cpp, which calls it for the one key; the
// matched resources' default (the reconciled kind) is sema's (sema/spec_resolve.cpp).
#pragma once
#include <string>
#include <vector>

#include "load/spec.hpp"
#include "load/yaml_load.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// Where a policy's `file:` is read from: `sources` (nullptr: a spec given as text, which cannot
// name files) and the spec's folder, which a relative path starts from.
struct PolicyFiles {
  SourceSet* sources = nullptr;
  std::string folder;
};

// Reads `admissionPolicies:`; reports every mistake (spec-unknown-key, spec-wrong-type,
// spec-missing-key, spec-bad-value, spec-duplicate-name, spec-bad-policy-file) and returns what it
// could read.
std::vector<SpecAdmissionPolicy> read_spec_policies(const Node& n, const PolicyFiles& files, Diagnostics& diags);

// The keys of one entry, in documentation order (the JSON Schema test compares them).
const std::vector<std::string>& spec_policy_keys();
const std::vector<std::string>& spec_policy_test_keys();

}  // namespace rrgen
