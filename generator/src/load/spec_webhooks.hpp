// The `webhooks:` section of a reconciler spec (docs/reconciler-spec.md#webhooks) as written:
// defaulting (mutating), validation and conversion webhooks, in the shape kubebuilder's
// `create webhook --defaulting --programmatic-validation --conversion` scaffolds. Kept apart from
// spec_reader.cpp, which calls it for the one key. What needs the CRDs (served versions, the hub,
// built-in kinds) is checked by sema/spec_webhooks_resolve.cpp.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "load/spec.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// Reads `webhooks:`; reports every mistake (spec-unknown-key, spec-wrong-type, spec-missing-key,
// spec-bad-operation, spec-bad-value) and returns what it could read.
std::optional<SpecWebhooks> read_spec_webhooks(const Node& n, Diagnostics& diags);

// The keys, in documentation order (the JSON Schema test compares them with the schema).
const std::vector<std::string>& spec_webhooks_keys();            // defaulting, validation, conversion
const std::vector<std::string>& spec_admission_webhook_keys();   // operations, failurePolicy, ...
const std::vector<std::string>& spec_conversion_webhook_keys();  // hub, path

}  // namespace rrgen
