// The Gizmo operator's main(), opted in to the local cluster mode: rr::run_operator from the
// installed rr::manager, rr::local_cluster_mode() from the installed rr::local_cluster_mode.
#include "gizmo_reconciler.hpp"
#include "rr/local_cluster_mode/local_cluster_mode.hpp"
#include "rr/manager/operator_main.hpp"

int main(int argc, char** argv) {
  return rr::run_operator(argc, argv,
                          {
                              .name = "gizmo-operator",
                              .leader_election_id = "gizmo.consumer.rrgen.dev",
                              .local_cluster = rr::local_cluster_mode(
                                  [](rr::Cluster& cluster) { cluster.register_kind<gizmo::Gizmo>(); }),
                              .setup =
                                  [](rr::OperatorContext& op) {
                                    op.add_controller("gizmo", [](const rr::Config& config) {
                                      return gizmo::GizmoReconciler(config);
                                    });
                                  },
                          });
}
