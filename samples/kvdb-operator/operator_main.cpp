// kvdb-operator: the KeyValueStore reconciler as a real operator process. Against a cluster:
//   kvdb-operator --kubeconfig ~/.kube/config --leader-elect
// or with an embedded local cluster that kubectl can drive (what live_e2e.sh runs):
//   kvdb-operator --local-cluster-kubeconfig <dir>/kvdb.kubeconfig
// The local cluster is an opt-in (rr::local_cluster_mode), on in this sample's build
// (KVDB_LOCAL_CLUSTER_MODE). Built without it, as a production image ships an operator, the
// binary links no development cluster and no HTTP server library (webapp-operator-production).
#include <memory>

#include "kvdb_hooks.hpp"
#include "rr/manager/operator_main.hpp"
#ifdef KVDB_LOCAL_CLUSTER_MODE
#include "rr/local_cluster_mode/local_cluster_mode.hpp"
#endif

int main(int argc, char** argv) {
  auto hooks = std::make_shared<const kvdb::KeyValueStoreHooks>();  // random passwords
  rr::OperatorMain operator_main{
      .name = "kvdb-operator",
      .leader_election_id = "kvdb.kv.example.rrgen.dev",
      .setup =
          [hooks](rr::OperatorContext& op) {
            op.add_controller(
                "kvdb", [hooks](const rr::Config& config) { return kvdb::KeyValueStoreReconciler(config, hooks); });
          },
  };
#ifdef KVDB_LOCAL_CLUSTER_MODE
  operator_main.local_cluster = rr::local_cluster_mode(
      [](rr::Cluster& cluster) { cluster.register_kind<kvdb::KeyValueStore>(); });
#endif
  return rr::run_operator(argc, argv, operator_main);
}
