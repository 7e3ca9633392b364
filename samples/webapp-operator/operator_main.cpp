// webapp-operator: the WebApp reconciler as a real operator process. Against a cluster:
//   webapp-operator --kubeconfig ~/.kube/config --leader-elect
// or with an embedded local cluster that kubectl can drive (what the README's main command does):
//   webapp-operator --local-cluster-kubeconfig <dir>/webapp.kubeconfig
// The local cluster is an opt-in (rr::local_cluster_mode): this file builds webapp-operator with it
// and webapp-operator-production without it (WEBAPP_LOCAL_CLUSTER_MODE undefined), as a
// production image would ship the operator: no development cluster, no HTTP server library.
// The DNS provider here is the in-memory one; a production build would pass a real provider.
// The webhooks (reconciler.yaml's webhooks:) are served on --webhook-port (9443) with the
// certificate in --webhook-cert-dir (config/webhook and config/certmanager deploy them).
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>

#include "rr/controller/cached_client.hpp"
#include "rr/manager/operator_main.hpp"
#include "rr/reconcilers/config.hpp"
#include "webapp_hooks.hpp"
#include "webapp_webhooks.hpp"
#ifdef WEBAPP_LOCAL_CLUSTER_MODE
#include "rr/local_cluster_mode/local_cluster_mode.hpp"
#endif

namespace {

// kubebuilder's ENABLE_WEBHOOKS: "false" runs the operator without its webhooks, anything else
// with them. Unset, they are served when the serving certificate is there (a deployed manager has
// it mounted from config/certmanager's Secret); a development run without one goes on without
// them instead of failing to start.
bool webhooks_enabled(const rr::ManagerOptions& options) {
  if (const char* env = std::getenv("ENABLE_WEBHOOKS")) return std::string_view(env) != "false";
  if (std::filesystem::exists(std::filesystem::path(options.webhook_cert_dir) / "tls.crt")) return true;
  std::clog << "webapp-operator: no serving certificate in " << options.webhook_cert_dir
            << ", running without webhooks (ENABLE_WEBHOOKS=true requires them)\n";
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  hooks->dns = std::make_shared<webapp::InMemoryDns>();
  rr::OperatorMain operator_main{
      .name = "webapp-operator",
      .leader_election_id = "webapp.web.example.rrgen.dev",
      .setup =
          [hooks](rr::OperatorContext& op) {
            op.add_controller("webapp", [hooks](const rr::Config& config) {
              return webapp::WebAppReconciler(config, hooks);
            });
            // The defaulting, validating and conversion webhooks on the manager's webhook server
            // (--webhook-port, certificate from --webhook-cert-dir). Their client reads from the
            // informer cache, as controller-runtime's manager client does: the ConfigMap deny-list
            // costs no call to the API server during admission (the Config step watches
            // ConfigMaps already).
            if (webhooks_enabled(op.options)) {
              auto cached = std::make_shared<rr::CachedClient>(op.api, op.cache);
              webapp::RegisterWebAppWebhooks(op.manager.webhook_server(), rr::make_config(cached), hooks);
            }
          },
  };
#ifdef WEBAPP_LOCAL_CLUSTER_MODE
  operator_main.local_cluster =
      rr::local_cluster_mode([](rr::Cluster& cluster) { cluster.register_kind<webapp::WebApp>(); });
#endif
  return rr::run_operator(argc, argv, operator_main);
}
