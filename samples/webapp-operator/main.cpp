// webapp_demo: the generated WebApp reconciler with its hooks, against an in-process cluster.
// A WebApp with a ConfigMap and a hostname is created and reconciled (Deployment, Service and
// DNS record appear), the Deployment's controller is played by hand, the ConfigMap changes (the
// tracker brings the WebApp back and the pods roll), and the WebApp is deleted (the finalizer
// holds it until the DNS record is gone; the children are garbage-collected).
#include <iostream>
#include <memory>
#include <string>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/events.hpp"
#include "webapp_hooks.hpp"

namespace {

using webapp::ConfigMap;
using webapp::Deployment;
using webapp::Service;
using webapp::WebApp;

constexpr const char* ns = "demo";

class PrintingRecorder final : public rr::EventRecorder {
 public:
  void record(const rr::Event& event) override {
    ++recorded;
    std::cout << "  event " << event.type << " " << event.reason << ": " << event.message << "\n";
  }
  int recorded = 0;
};

std::string or_none(const std::optional<std::string>& value) { return value ? *value : "(none)"; }

void print_state(rr::Client& client, const webapp::InMemoryDns& dns) {
  const auto app = client.try_get<WebApp>({ns, "hello"});
  if (!app) {
    std::cout << "  WebApp demo/hello: gone\n";
  } else {
    const auto status = app->status.value_or(webapp::v1::WebAppStatus{});
    std::cout << "  WebApp demo/hello: url=" << or_none(status.url) << " configHash=" << or_none(status.config_hash)
              << " availableReplicas=" << status.available_replicas.value_or(0) << " dnsRecord=" << or_none(status.dns_record)
              << " finalizers=" << app->metadata.finalizers.size() << "\n  conditions:";
    for (const auto& c : status.conditions.value_or(std::vector<rr::Condition>{})) std::cout << " " << c.type << "=" << c.status;
    std::cout << "\n";
  }
  if (const auto d = client.try_get<Deployment>({ns, "hello"})) {
    const auto& tmpl = d->spec->template_;
    const auto& annotations = tmpl.metadata ? tmpl.metadata->annotations : std::map<std::string, std::string>{};
    auto hash = annotations.find(std::string(webapp::config_hash_annotation));
    std::cout << "  Deployment demo/hello: replicas=" << d->spec->replicas.value_or(1)
              << " image=" << or_none(tmpl.spec->containers.at(0).image)
              << " config-hash=" << (hash == annotations.end() ? "(none)" : hash->second) << "\n";
  } else {
    std::cout << "  Deployment demo/hello: none\n";
  }
  if (const auto s = client.try_get<Service>({ns, "hello"})) {
    std::cout << "  Service demo/hello: port " << s->spec->ports->at(0).port << " -> "
              << s->spec->ports->at(0).target_port->to_string() << "\n";
  } else {
    std::cout << "  Service demo/hello: none\n";
  }
  std::cout << "  DNS hello.example.com -> " << or_none(dns.lookup("hello.example.com")) << "\n";
}

bool reconcile(const rr::Reconciler& reconciler, const PrintingRecorder& recorder, const rr::Request& request) {
  const int before = recorder.recorded;
  const rr::Outcome out = reconciler.reconcile(request);
  if (out.error) {
    std::cout << "  reconcile failed: " << out.error.message() << "\n";
    return false;
  }
  if (recorder.recorded == before) std::cout << "  (no events)\n";
  return true;
}

}  // namespace

int main() {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<WebApp>();
  cluster->register_kind<Deployment>();
  cluster->register_kind<Service>();
  cluster->register_kind<ConfigMap>();
  auto client = std::make_shared<rr::ClusterClient>(cluster);
  rr::Config config = rr::make_config(client);
  auto recorder = std::make_shared<PrintingRecorder>();
  config.recorder = recorder;
  auto dns = std::make_shared<webapp::InMemoryDns>();
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  hooks->dns = dns;
  const rr::Reconciler reconciler = webapp::WebAppReconciler(config, hooks);
  const rr::Request request{ns, "hello"};

  std::cout << "== 1. a WebApp: image registry.example/hello:1.0, 2 replicas, ConfigMap hello-config, hostname hello.example.com\n";
  ConfigMap config_map;
  config_map.metadata.namespace_ = ns;
  config_map.metadata.name = "hello-config";
  config_map.data = std::map<std::string, std::string>{{"GREETING", "hello"}};
  client->create(config_map);
  WebApp app;
  app.metadata.namespace_ = ns;
  app.metadata.name = "hello";
  auto& spec = app.spec.emplace();
  spec.image = "registry.example/hello:1.0";
  spec.replicas = 2;
  spec.config_map_name = "hello-config";
  spec.hostname = "hello.example.com";
  client->create(app);
  if (!reconcile(reconciler, *recorder, request)) return 1;
  print_state(*client, *dns);

  std::cout << "== 2. the Deployment's controller reports 2 available replicas\n";
  Deployment deployment = client->get<Deployment>(ns, "hello");
  deployment.status.emplace().available_replicas = 2;
  client->update_status(deployment);
  if (!reconcile(reconciler, *recorder, request)) return 1;
  print_state(*client, *dns);

  std::cout << "== 3. the ConfigMap changes: the tracker brings the WebApp back and the pods roll\n";
  config_map = client->get<ConfigMap>(ns, "hello-config");
  (*config_map.data)["GREETING"] = "bonjour";
  config_map = client->update(config_map);
  for (const auto& key : config.tracker->get_observers(rr::to_object_json(config_map))) {
    std::cout << "  tracker: ConfigMap demo/hello-config changed -> reconcile " << key.namespace_ << "/" << key.name << "\n";
    if (!reconcile(reconciler, *recorder, key)) return 1;
  }
  print_state(*client, *dns);

  std::cout << "== 4. a reconcile with nothing to do\n";
  if (!reconcile(reconciler, *recorder, request)) return 1;

  std::cout << "== 5. the WebApp is deleted: the finalizer holds it until the DNS record is gone\n";
  client->remove(client->get<WebApp>(request));
  if (!reconcile(reconciler, *recorder, request)) return 1;
  print_state(*client, *dns);
  return 0;
}
