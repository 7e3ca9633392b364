// The metrics part of config/, in kubebuilder v4's layout (names carry the app prefix and the
// deploy namespace, as the rest of the tree does):
//   default/metrics_service.yaml        <app>-controller-manager-metrics-service: https 8443 (http
//                                       8080 with metrics.secure false)
//   default/manager_metrics_patch.yaml  a JSON patch adding --metrics-bind-address=:8443 to the
//                                       manager's args (and --metrics-secure=false when not secure)
//   prometheus/monitor.yaml             <app>-controller-manager-metrics-monitor, a ServiceMonitor
//                                       scraping with its ServiceAccount's token
//   network-policy/allow-metrics-traffic.yaml   ingress to the metrics port only from namespaces
//                                       labelled metrics: enabled; allow-webhook-traffic.yaml the
//                                       same for the webhook port and webhook: enabled (with webhooks)
// config/rbac's metrics roles are the RBAC backend's (emit_metrics_rbac.cpp). emit_config lists
// these in config/default: the Service and the patch always, ../prometheus and ../network-policy
// only when the spec's metrics.serviceMonitor / metrics.networkPolicy say so.
#pragma once
#include <string>
#include <vector>

#include "model/reconciler.hpp"
#include "support/output.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

// The manager's metrics port: 8443 (HTTPS) or 8080 (plain HTTP with metrics.secure false).
int metrics_port(const ResolvedSpec& spec);

// Adds the files above to `out`.
void emit_metrics_config(const ResolvedSpec& spec, OutputSet& out);

// What config/default adds: resources and the patch entry (a JSON patch with its target).
std::vector<std::string> metrics_default_resources(const ResolvedSpec& spec);
Yaml metrics_default_patch();

}  // namespace rrgen
