// An operator's main() in a few lines: controller-runtime's flags, the API client from the
// kubeconfig (or the in-cluster config), the manager with a shared informer cache, the operator's
// controllers, and SIGTERM → graceful shutdown. An operator that opts in to the local cluster mode
// (`.local_cluster = rr::local_cluster_mode(...)`, library rr::local_cluster_mode) also takes
// `--local-cluster-kubeconfig FILE`: it starts an embedded development cluster in the same process
// first, writes its kubeconfig to FILE for kubectl, and runs the operator against it over HTTP.
// Without the opt-in the operator links no development cluster and that flag is a usage error.
//
//   int main(int argc, char** argv) {
//     return rr::run_operator(argc, argv, {
//         .name = "widget-operator",
//         .leader_election_id = "widget.example.dev",
//         .setup = [](rr::OperatorContext& op) { op.add_controller("widget", &WidgetReconciler); },
//     });
//   }
// See docs/runtime/25-operator-main.md.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "rr/controller/controller.hpp"
#include "rr/manager/manager.hpp"

namespace rr {

class InformerCache;

// What setup() builds an operator from.
struct OperatorContext {
  Manager& manager;
  std::shared_ptr<Client> api;             // uncached: every call goes to the API server
  std::shared_ptr<InformerCache> cache;    // shared by every controller of the process
  const ManagerOptions& options;

  // Adds a controller whose reconciler `factory` builds from the controller's Config, with the
  // flags' --max-concurrent-reconciles, the manager's logger and metrics.
  std::shared_ptr<Controller> add_controller(std::string name, Controller::ReconcilerFactory factory);
  // The same with options of the reconciler's own (its spec's predicates, watches, channels,
  // reconcile timeout: a generated <Name>ControllerOptions fills them); `options.name` is required.
  // The flags set the concurrency, the priority queue and the logger; --reconcile-timeout, when
  // given, replaces the options' timeout.
  std::shared_ptr<Controller> add_controller(ControllerOptions options, Controller::ReconcilerFactory factory);
};

// A development cluster running in the operator's process for --local-cluster-kubeconfig; it stops
// when destroyed. rr::local_cluster_mode() (rr/local_cluster_mode/local_cluster_mode.hpp) makes them.
class LocalCluster {
 public:
  virtual ~LocalCluster() = default;
  virtual std::string url() const = 0;  // what the operator connects to
};
// What the command line asks of the local cluster.
struct LocalClusterRequest {
  std::string kubeconfig_path;  // --local-cluster-kubeconfig
  // --local-cluster-insecure-http: plain HTTP and no authentication, instead of HTTPS with a
  // throw-away CA and a client certificate in the kubeconfig (what kind and envtest do).
  bool insecure_http = false;
};
// Starts a local cluster and writes its kubeconfig (the operator's credentials too) to the
// requested path once it answers.
using LocalClusterMode = std::function<std::unique_ptr<LocalCluster>(const LocalClusterRequest& request)>;

struct OperatorMain {
  std::string name;                // the program's name in usage text and logs
  std::string leader_election_id;  // default for --leader-election-id
  // The opt-in for --local-cluster-kubeconfig: rr::local_cluster_mode(...). Empty (the default),
  // the operator links no development cluster and the flag is a usage error (exit 2).
  LocalClusterMode local_cluster{};
  std::function<void(OperatorContext&)> setup;
};

// Parses the flags (exit 2 on a bad command line, 0 after --help), connects, runs the manager
// until SIGINT/SIGTERM and returns the exit code. When runnables still run after the manager's
// run() (exit code 1 after an overrun grace period or a lost lease), it ends the process at once
// with std::_Exit(1) instead, as controller-runtime's main() exits, rather than wait for them.
int run_operator(int argc, char** argv, const OperatorMain& main);

}  // namespace rr
