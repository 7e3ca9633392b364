// An operator's main() in a few lines: controller-runtime's flags, the API client from the
// kubeconfig (or the in-cluster config), the manager with a shared informer cache, the operator's
// controllers, and SIGTERM → graceful shutdown. `--local-cluster-kubeconfig FILE` starts an
// embedded local cluster (rr::ApiServer on 127.0.0.1) in the same process first, writes its
// kubeconfig to FILE for kubectl, and runs the operator against it over HTTP.
//
//   int main(int argc, char** argv) {
//     return rr::run_operator(argc, argv, {
//         .name = "widget-operator",
//         .leader_election_id = "widget.example.dev",
//         .register_local_kinds = [](rr::Cluster& c) { c.register_kind<Widget>(); },
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

class Cluster;
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
};

struct OperatorMain {
  std::string name;                // the program's name in usage text and logs
  std::string leader_election_id;  // default for --leader-election-id
  // The operator's own kinds (typed, with defaulting and validation) for the embedded local
  // cluster, as the CRDs' structural schemas make a real API server default and validate them.
  std::function<void(Cluster&)> register_local_kinds{};
  std::function<void(OperatorContext&)> setup;
};

// Parses the flags (exit 2 on a bad command line, 0 after --help), connects, runs the manager
// until SIGINT/SIGTERM and returns the exit code. When runnables still run after the manager's
// run() (exit code 1 after an overrun grace period or a lost lease), it ends the process at once
// with std::_Exit(1) instead, as controller-runtime's main() exits, rather than wait for them.
int run_operator(int argc, char** argv, const OperatorMain& main);

}  // namespace rr
