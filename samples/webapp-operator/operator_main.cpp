// webapp-operator: the WebApp reconciler as a real operator process. Against a cluster:
//   webapp-operator --kubeconfig ~/.kube/config --leader-elect
// or with an embedded local cluster that kubectl can drive (what the README's main command does):
//   webapp-operator --local-cluster-kubeconfig <dir>/webapp.kubeconfig
// The DNS provider here is the in-memory one; a production build would pass a real provider.
#include <memory>

#include "rr/cluster/cluster.hpp"
#include "rr/manager/operator_main.hpp"
#include "webapp_hooks.hpp"

int main(int argc, char** argv) {
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  hooks->dns = std::make_shared<webapp::InMemoryDns>();
  return rr::run_operator(argc, argv,
                          {
                              .name = "webapp-operator",
                              .leader_election_id = "webapp.web.example.rrgen.dev",
                              .register_local_kinds = [](rr::Cluster& cluster) { cluster.register_kind<webapp::WebApp>(); },
                              .setup =
                                  [hooks](rr::OperatorContext& op) {
                                    op.add_controller("webapp", [hooks](const rr::Config& config) {
                                      return webapp::WebAppReconciler(config, hooks);
                                    });
                                  },
                          });
}
