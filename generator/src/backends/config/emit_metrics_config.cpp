// config/'s metrics manifests (see emit_metrics_config.hpp).
#include "backends/config/emit_metrics_config.hpp"

#include <utility>

#include "backends/config/emit_webhook_config.hpp"
#include "model/rbac_derive.hpp"

namespace rrgen {
namespace {

constexpr const char* token_file = "/var/run/secrets/kubernetes.io/serviceaccount/token";

Yaml manager_labels(const DeployNames& names) {
  Yaml labels = Yaml::map();
  labels.set("control-plane", "controller-manager");
  labels.set("app.kubernetes.io/name", names.app);
  return labels;
}

Yaml named(const DeployNames& names, const std::string& name) {
  Yaml meta = Yaml::map();
  meta.set("labels", manager_labels(names));
  meta.set("name", name);
  meta.set("namespace", names.namespace_);
  return meta;
}

Yaml document(const char* api_version, const char* kind, Yaml metadata, Yaml spec) {
  Yaml doc = Yaml::map();
  doc.set("apiVersion", api_version);
  doc.set("kind", kind);
  doc.set("metadata", std::move(metadata));
  doc.set("spec", std::move(spec));
  return doc;
}

const char* port_name(const ResolvedSpec& spec) { return spec.metrics.secure ? "https" : "http"; }

Yaml metrics_service(const ResolvedSpec& spec, const DeployNames& names) {
  Yaml port = Yaml::map();
  port.set("name", port_name(spec));
  port.set("port", Yaml::integer(metrics_port(spec)));
  port.set("protocol", "TCP");
  port.set("targetPort", Yaml::integer(metrics_port(spec)));
  Yaml service = Yaml::map();
  service.set("ports", Yaml::seq().push(std::move(port)));
  service.set("selector", manager_labels(names));
  return document("v1", "Service", named(names, names.deployment + "-metrics-service"), std::move(service));
}

// A JSON patch (RFC 6902): each flag inserted first among the manager container's args.
Yaml manager_metrics_patch(const ResolvedSpec& spec) {
  std::vector<std::string> flags = {"--metrics-bind-address=:" + std::to_string(metrics_port(spec))};
  if (!spec.metrics.secure) flags.emplace_back("--metrics-secure=false");
  Yaml ops = Yaml::seq();
  for (auto flag = flags.rbegin(); flag != flags.rend(); ++flag) {
    Yaml op = Yaml::map();
    op.set("op", "add");
    op.set("path", "/spec/template/spec/containers/0/args/0");
    op.set("value", *flag);
    ops.push(std::move(op));
  }
  return ops;
}

Yaml service_monitor(const ResolvedSpec& spec, const DeployNames& names) {
  Yaml endpoint = Yaml::map();
  endpoint.set("path", "/metrics");
  endpoint.set("port", port_name(spec));
  endpoint.set("scheme", port_name(spec));
  if (spec.metrics.secure) {
    endpoint.set("bearerTokenFile", token_file);
    Yaml tls = Yaml::map();
    tls.set("insecureSkipVerify", Yaml::boolean(true));  // the manager's self-signed certificate
    endpoint.set("tlsConfig", std::move(tls));
  }
  Yaml selector = Yaml::map();
  selector.set("matchLabels", manager_labels(names));
  Yaml monitor = Yaml::map();
  monitor.set("endpoints", Yaml::seq().push(std::move(endpoint)));
  monitor.set("selector", std::move(selector));
  return document("monitoring.coreos.com/v1", "ServiceMonitor", named(names, names.deployment + "-metrics-monitor"),
                  std::move(monitor));
}

// Ingress to the manager's `port` only from namespaces labelled `label: enabled`.
Yaml network_policy(const DeployNames& names, const std::string& name, const char* label, int port) {
  Yaml pod_selector = Yaml::map();
  pod_selector.set("matchLabels", manager_labels(names));
  Yaml namespaces = Yaml::map();
  namespaces.set(label, "enabled");
  Yaml from = Yaml::map();
  Yaml namespace_selector = Yaml::map();
  namespace_selector.set("matchLabels", std::move(namespaces));
  from.set("namespaceSelector", std::move(namespace_selector));
  Yaml to_port = Yaml::map();
  to_port.set("port", Yaml::integer(port));
  to_port.set("protocol", "TCP");
  Yaml rule = Yaml::map();
  rule.set("from", Yaml::seq().push(std::move(from)));
  rule.set("ports", Yaml::seq().push(std::move(to_port)));
  Yaml policy = Yaml::map();
  policy.set("podSelector", std::move(pod_selector));
  policy.set("policyTypes", Yaml::strings({"Ingress"}));
  policy.set("ingress", Yaml::seq().push(std::move(rule)));
  return document("networking.k8s.io/v1", "NetworkPolicy", named(names, names.app + "-" + name), std::move(policy));
}

}  // namespace

int metrics_port(const ResolvedSpec& spec) { return spec.metrics.secure ? 8443 : 8080; }

void emit_metrics_config(const ResolvedSpec& spec, OutputSet& out) {
  const DeployNames names = deploy_names(spec);
  out.files.push_back({"config/default/metrics_service.yaml",
                       manifest_file({metrics_service(spec, names)}, "The manager's /metrics for Prometheus.")});
  out.files.push_back({"config/default/manager_metrics_patch.yaml",
                       manifest_file({manager_metrics_patch(spec)}, "Serves the manager's /metrics on port " +
                                                                        std::to_string(metrics_port(spec)) +
                                                                        (spec.metrics.secure ? " over HTTPS." : "."))});
  out.files.push_back({"config/prometheus/monitor.yaml",
                       manifest_file({service_monitor(spec, names)},
                                     "Prometheus Operator's ServiceMonitor for the manager's metrics Service. Deployed "
                                     "by config/default with metrics.serviceMonitor: true in the spec.")});
  out.files.push_back({"config/prometheus/kustomization.yaml", manifest_file({kustomization({"monitor.yaml"})})});

  std::vector<std::string> policies;
  if (spec.webhooks) {
    out.files.push_back({"config/network-policy/allow-webhook-traffic.yaml",
                         manifest_file({network_policy(names, "allow-webhook-traffic", "webhook", kWebhookPort)},
                                       "The webhook server only for namespaces labelled webhook: enabled.")});
    policies.emplace_back("allow-webhook-traffic.yaml");
  }
  out.files.push_back({"config/network-policy/allow-metrics-traffic.yaml",
                       manifest_file({network_policy(names, "allow-metrics-traffic", "metrics", metrics_port(spec))},
                                     "/metrics only for Pods in namespaces labelled metrics: enabled. Deployed by "
                                     "config/default with metrics.networkPolicy: true in the spec.")});
  policies.emplace_back("allow-metrics-traffic.yaml");
  out.files.push_back({"config/network-policy/kustomization.yaml", manifest_file({kustomization(policies)})});
}

std::vector<std::string> metrics_default_resources(const ResolvedSpec& spec) {
  std::vector<std::string> resources;
  if (spec.metrics.service_monitor) resources.emplace_back("../prometheus");
  resources.emplace_back("metrics_service.yaml");
  if (spec.metrics.network_policy) resources.emplace_back("../network-policy");
  return resources;
}

Yaml metrics_default_patch() {
  Yaml target = Yaml::map();
  target.set("kind", "Deployment");
  Yaml entry = Yaml::map();
  entry.set("path", "manager_metrics_patch.yaml");
  entry.set("target", std::move(target));
  return entry;
}

}  // namespace rrgen
