// The WebApp operator's hooks: what rrgen's generated wiring (webapp_reconciler.cpp) calls for
// each step of reconciler.yaml. This file is ours; rrgen created it once and never rewrites it.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "dns_provider.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"
#include "webapp_reconciler.hpp"

namespace webapp {

// Labels every child carries (and the Deployment selects its pods by).
inline constexpr std::string_view app_label = "app.kubernetes.io/name";
inline constexpr std::string_view managed_by_label = "app.kubernetes.io/managed-by";
// On the pod template: a new ConfigMap content is a new template, so the pods roll.
inline constexpr std::string_view config_hash_annotation = "web.example.rrgen.dev/config-hash";
// The image deny-list the validating webhook reads: a ConfigMap of this name in the WebApp's
// namespace, key "denied", one image prefix a line.
inline constexpr std::string_view image_policy_config_map = "webapp-image-policy";

struct WebAppHooks {
  // Where spec.hostname is published; the in-memory provider unless main() gives a real one.
  std::shared_ptr<DnsProvider> dns = std::make_shared<InMemoryDns>();

  // Config: status.configHash from the ConfigMap spec.configMapName names (tracked, so its
  // changes re-reconcile the WebApp). ConfigReady is False while the ConfigMap is missing.
  rr::Error config_sync(rr::Context& ctx, WebApp& app) const;

  // Deployment "<name>" (write: apply): the fields the operator owns, as an apply configuration:
  // spec.replicas pods of spec.image listening on spec.port, with the ConfigMap as environment
  // and status.configHash on the template. Applied by field manager "webapp" with force, only
  // when it differs from what was applied last; what others set (an autoscaler's annotations,
  // say) is left alone.
  rr::Desired<DeploymentApply> deployment_desired(rr::Context& ctx, const WebApp& app) const;
  void deployment_reflect(rr::Context& ctx, WebApp& app, const Deployment* child, const rr::Error& err) const;

  // Service "<name>" (write: apply): port 80 to spec.port on the Deployment's pods. The server's
  // own fields (clusterIP ...) are not in the configuration, so no merge is needed.
  rr::Desired<ServiceApply> service_desired(rr::Context& ctx, const WebApp& app) const;
  void service_reflect(rr::Context& ctx, WebApp& app, const Service* child, const rr::Error& err) const;

  // DnsRecord (behind the finalizer web.example.rrgen.dev/dns-record): spec.hostname points at
  // the Service while the WebApp lives; the record is removed before the WebApp goes.
  rr::Error dns_record_sync(rr::Context& ctx, WebApp& app) const;
  rr::Error dns_record_finalize(rr::Context& ctx, WebApp& app) const;

  // ---- webhooks (webapp_webhooks.cpp) ----

  // Defaulting: the app label (app.kubernetes.io/name: <name>) on a WebApp created or updated
  // without one, as its children carry it.
  rr::Error webhook_default(rr::Context& ctx, WebApp& app) const;

  // Validation: spec.image must not start with a prefix of the deny-list in ConfigMap
  // webapp-image-policy of the WebApp's namespace: data in the cluster, which a CEL rule of the
  // CRD cannot read. An update is checked only when it changes the image, so a WebApp running
  // an image denied later can still be scaled. Warns about spec.replicas 0.
  rr::Error webhook_validate_create(rr::Context& ctx, const WebApp& app, std::vector<std::string>& warnings) const;
  rr::Error webhook_validate_update(rr::Context& ctx, const WebApp& old_app, const WebApp& app,
                                    std::vector<std::string>& warnings) const;

  // Conversion: v1alpha1 nests the hostname under spec.dns and has no port (the conversion keeps
  // a v1 port in its annotation while the object is read as v1alpha1).
  rr::Error convert_v1alpha1_to_hub(const WebAppV1alpha1& from, WebApp& hub) const;
  rr::Error convert_v1alpha1_from_hub(const WebApp& hub, WebAppV1alpha1& to) const;
};

// FNV-1a of the ConfigMap's data (keys in order): equal data, equal hash, on every replica.
std::string config_hash(const ConfigMap& config);
// "<service>.<namespace>.svc.cluster.local": what the DNS record and status.url point at.
std::string service_host(const WebApp& app);

}  // namespace webapp
