// webapp-operator: the WebApp reconciler as a real operator process. Against a cluster:
//   webapp-operator --kubeconfig ~/.kube/config --leader-elect
// or with an embedded local cluster that kubectl can drive (what the README's main command does):
//   webapp-operator --local-cluster-kubeconfig <dir>/webapp.kubeconfig
// The local cluster is an opt-in (rr::local_cluster_mode): this file builds webapp-operator with it
// and webapp-operator-production without it (WEBAPP_LOCAL_CLUSTER_MODE undefined), as a
// production image would ship the operator: no development cluster, no HTTP server library.
// The DNS provider here is the in-memory one; a production build would pass a real provider.
#include <memory>

#include "rr/manager/operator_main.hpp"
#include "webapp_hooks.hpp"
#ifdef WEBAPP_LOCAL_CLUSTER_MODE
#include "rr/local_cluster_mode/local_cluster_mode.hpp"
#endif

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
          },
  };
#ifdef WEBAPP_LOCAL_CLUSTER_MODE
  operator_main.local_cluster =
      rr::local_cluster_mode([](rr::Cluster& cluster) { cluster.register_kind<webapp::WebApp>(); });
#endif
  return rr::run_operator(argc, argv, operator_main);
}
