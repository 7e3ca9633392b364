// conditions-watcher: marks every object of the kinds it watches that reports status.conditions
// with a `Watched` condition summing up the others, through status patches.
//
//   conditions-watcher --kubeconfig ~/.kube/config -- apps/v1/Deployment example.dev/v1/Gadget
//
// The kinds are the positional arguments (after `--`), else CONDITIONS_WATCHER_KINDS
// (comma-separated), else the spec's (Deployment and Gadget); each is resolved through the API
// server's discovery, so any built-in kind or CRD works, and gets a controller of its own
// (AddConditionsWatcherControllers, generated from reconciler.yaml).
#include "conditions_watcher_hooks.hpp"
#include "rr/manager/operator_main.hpp"

int main(int argc, char** argv) {
  rr::OperatorMain operator_main{
      .name = "conditions-watcher",
      .leader_election_id = "conditions-watcher.rrgen.dev",
      .setup = [](rr::OperatorContext& op) { watcher::AddConditionsWatcherControllers(op); },
  };
  return rr::run_operator(argc, argv, operator_main);
}
