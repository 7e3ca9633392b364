// The `metrics:` section of a reconciler spec (docs/reconciler-spec.md#metrics) as written: how
// config/ exposes the manager's /metrics, with kubebuilder v4's defaults (HTTPS with authn/authz
// and its metrics Service; the ServiceMonitor and the NetworkPolicy generated but not deployed).
#pragma once
#include <string>
#include <vector>

#include "load/spec.hpp"
#include "load/yaml_node.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// Reads `metrics:` into `out`; reports spec-wrong-type and spec-unknown-key.
void read_spec_metrics(const Node& n, SpecMetrics& out, Diagnostics& diags);

// The keys, in documentation order (the JSON Schema test compares them with the schema).
const std::vector<std::string>& spec_metrics_keys();  // secure, serviceMonitor, networkPolicy

}  // namespace rrgen
