#include "webapp_hooks.hpp"

#include <cstdint>
#include <cstdio>
#include <utility>

#include "k8s/apps/v1/deployment_apply.hpp"
#include "k8s/core/v1/service_apply.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/object.hpp"

namespace webapp {

namespace {

using k8s::core::v1::ContainerApply;
using k8s::core::v1::ContainerPortApply;
using k8s::core::v1::EnvFromSourceApply;
using k8s::core::v1::ServicePortApply;

constexpr std::int32_t default_port = 8080;

std::map<std::string, std::string> child_labels(const WebApp& app) {
  std::map<std::string, std::string> labels = app.metadata.labels;
  labels[std::string(app_label)] = app.metadata.name;
  labels[std::string(managed_by_label)] = "webapp-operator";
  return labels;
}

std::int32_t port_of(const WebApp& app) { return app.spec && app.spec->port ? *app.spec->port : default_port; }

rr::ConditionManager conditions_of(rr::Context& ctx, WebApp& app) {
  return WebAppConditions().manage(rr::ensure_conditions(app), ctx.now());
}

void record(rr::Context& ctx, const WebApp& app, std::string reason, std::string message) {
  if (const auto& recorder = ctx.config().recorder) {
    recorder->event(app, rr::event_normal, std::move(reason), std::move(message));
  }
}

// A child the cluster refused (AlreadyExists, Forbidden, Invalid) or another error, as the
// condition's reason and message.
void mark_child_error(rr::ConditionManager& conditions, std::string_view type, const rr::Error& err,
                      std::string_view kind, const std::string& name) {
  if (rr::is_already_exists(err)) {
    conditions.mark_false(type, "NotOwned",
                          "There is an existing " + std::string(kind) + " " + rr::go_quote(name) +
                              " that the WebApp does not own.");
  } else {
    conditions.mark_false(type, rr::reason_of(err), err.message());
  }
}

}  // namespace

std::string config_hash(const ConfigMap& config) {
  std::uint64_t hash = 1469598103934665603ull;
  auto mix = [&](std::string_view text) {
    for (unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    hash = (hash ^ 0xffu) * 1099511628211ull;  // separator: ("a","bc") differs from ("ab","c")
  };
  if (config.data) {
    for (const auto& [key, value] : *config.data) {
      mix(key);
      mix(value);
    }
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash));
  return text;
}

std::string service_host(const WebApp& app) {
  return app.metadata.name + "." + app.metadata.namespace_ + ".svc.cluster.local";
}

rr::Error WebAppHooks::config_sync(rr::Context& ctx, WebApp& app) const {
  rr::ConditionManager conditions = conditions_of(ctx, app);
  auto& status = rr::ensure_status(app);
  const std::string name = app.spec && app.spec->config_map_name ? *app.spec->config_map_name : std::string();
  if (name.empty()) {
    status.config_hash.reset();
    conditions.mark_true(WebAppCondition::ConfigReady, "NoConfig");
    return {};
  }
  // Tracked before the read: the ConfigMap's creation or change re-reconciles this WebApp.
  const std::optional<ConfigMap> config = rr::track_and_try_get<ConfigMap>(ctx, {app.metadata.namespace_, name});
  if (!config) {
    status.config_hash.reset();
    conditions.mark_false(WebAppCondition::ConfigReady, "ConfigMapMissing", "ConfigMap " + rr::go_quote(name) + " does not exist");
    // Recorded on status; halts the sequence (no Deployment runs without its configuration)
    // without a retry storm: the tracker brings the WebApp back when the ConfigMap appears.
    return rr::err_durable();
  }
  status.config_hash = config_hash(*config);
  conditions.mark_true(WebAppCondition::ConfigReady, "Resolved");
  return {};
}

rr::Desired<DeploymentApply> WebAppHooks::deployment_desired(rr::Context&, const WebApp& app) const {
  DeploymentApply d;
  d.metadata.namespace_ = app.metadata.namespace_;
  d.metadata.name = app.metadata.name;
  d.metadata.labels = child_labels(app);
  auto& spec = d.spec.emplace();
  spec.replicas = app.spec && app.spec->replicas ? *app.spec->replicas : 1;
  rr::LabelSelector selector;
  selector.match_labels = std::map<std::string, std::string>{{std::string(app_label), app.metadata.name}};
  spec.selector = selector;
  auto& tmpl = spec.template_.emplace();
  auto& meta = tmpl.metadata.emplace();
  meta.labels = child_labels(app);
  if (app.status && app.status->config_hash) {
    meta.annotations = std::map<std::string, std::string>{
        {std::string(config_hash_annotation), *app.status->config_hash}};
  }
  ContainerApply container;
  container.name = "app";
  container.image = app.spec ? app.spec->image : std::string();
  ContainerPortApply port;
  port.name = "http";
  port.container_port = port_of(app);
  // Spelled out although it is the API server's default: it is a key of the ports list, so the
  // server records it among the fields this manager owns, and a configuration without it would
  // differ from what was applied and be applied again on every reconcile.
  port.protocol = "TCP";
  container.ports = std::vector<ContainerPortApply>{port};
  if (app.spec && app.spec->config_map_name && !app.spec->config_map_name->empty()) {
    EnvFromSourceApply from;
    from.config_map_ref.emplace().name = *app.spec->config_map_name;
    container.env_from = std::vector<EnvFromSourceApply>{from};
  }
  tmpl.spec.emplace().containers = std::vector<ContainerApply>{container};
  return d;
}

void WebAppHooks::deployment_reflect(rr::Context& ctx, WebApp& app, const Deployment* child, const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, app);
  auto& status = rr::ensure_status(app);
  if (err) {
    mark_child_error(conditions, WebAppCondition::DeploymentReady, err, "Deployment", app.metadata.name);
    return;
  }
  if (!child) {
    status.available_replicas.reset();
    conditions.mark_unknown(WebAppCondition::DeploymentReady, "NotCreated", "the Deployment does not exist yet");
    return;
  }
  const std::int32_t wanted = child->spec && child->spec->replicas ? *child->spec->replicas : 1;
  const std::int32_t available = child->status && child->status->available_replicas ? *child->status->available_replicas : 0;
  status.available_replicas = available;
  if (available >= wanted) {
    conditions.mark_true(WebAppCondition::DeploymentReady, "Available");
  } else {
    conditions.mark_unknown(WebAppCondition::DeploymentReady, "Progressing",
                            std::to_string(available) + " of " + std::to_string(wanted) + " replicas available");
  }
}

rr::Desired<ServiceApply> WebAppHooks::service_desired(rr::Context&, const WebApp& app) const {
  ServiceApply s;
  s.metadata.namespace_ = app.metadata.namespace_;
  s.metadata.name = app.metadata.name;
  s.metadata.labels = child_labels(app);
  auto& spec = s.spec.emplace();
  spec.selector = std::map<std::string, std::string>{{std::string(app_label), app.metadata.name}};
  ServicePortApply port;
  port.name = "http";
  port.port = 80;
  port.target_port = rr::IntOrString(port_of(app));
  port.protocol = "TCP";  // a key of the ports list, as for the Deployment's container port
  spec.ports = std::vector<ServicePortApply>{port};
  return s;
}

void WebAppHooks::service_reflect(rr::Context& ctx, WebApp& app, const Service* child, const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, app);
  auto& status = rr::ensure_status(app);
  if (err) {
    mark_child_error(conditions, WebAppCondition::ServiceReady, err, "Service", app.metadata.name);
    return;
  }
  if (!child) {
    status.url.reset();
    conditions.mark_unknown(WebAppCondition::ServiceReady, "NotCreated", "the Service does not exist yet");
    return;
  }
  status.url = "http://" + service_host(app);
  conditions.mark_true(WebAppCondition::ServiceReady, "Exposed");
}

rr::Error WebAppHooks::dns_record_sync(rr::Context& ctx, WebApp& app) const {
  rr::ConditionManager conditions = conditions_of(ctx, app);
  auto& status = rr::ensure_status(app);
  const std::string hostname = app.spec && app.spec->hostname ? *app.spec->hostname : std::string();
  // A hostname removed from the spec: its record goes too.
  if (status.dns_record && *status.dns_record != hostname) {
    dns->remove(*status.dns_record);
    record(ctx, app, "DnsRecordDeleted", "Deleted DNS record " + rr::go_quote(*status.dns_record));
    status.dns_record.reset();
  }
  if (hostname.empty()) {
    conditions.mark_true(WebAppCondition::DnsReady, "NoHostname");
    return {};
  }
  // Decided from what the provider has now, so a retried request does not write twice.
  const std::string target = service_host(app);
  if (dns->lookup(hostname) != target) {
    dns->upsert(hostname, target);
    record(ctx, app, "DnsRecordPublished", "Published " + rr::go_quote(hostname) + " -> " + rr::go_quote(target));
  }
  status.dns_record = hostname;
  conditions.mark_true(WebAppCondition::DnsReady, "Published");
  return {};
}

rr::Error WebAppHooks::dns_record_finalize(rr::Context& ctx, WebApp& app) const {
  const std::string hostname = app.status && app.status->dns_record ? *app.status->dns_record : std::string();
  if (hostname.empty() || !dns->lookup(hostname)) return {};  // nothing published, or already gone
  dns->remove(hostname);
  record(ctx, app, "DnsRecordDeleted", "Deleted DNS record " + rr::go_quote(hostname));
  return {};
}

}  // namespace webapp
