// conditions-watcher: marks every object of the kinds named on the command line that reports
// status.conditions with a `Watched` condition summing up the others, through status patches.
//
//   conditions-watcher --kubeconfig ~/.kube/config -- apps/v1/Deployment example.dev/v1/Gadget
//
// The kinds are the positional arguments (after `--`); each is resolved through the API server's
// discovery, so any built-in kind or CRD works, and gets a controller of its own.
#include <iostream>
#include <stdexcept>
#include <string>

#include "conditions_watcher.hpp"
#include "rr/manager/operator_main.hpp"

int main(int argc, char** argv) {
  rr::OperatorMain operator_main{
      .name = "conditions-watcher",
      .leader_election_id = "conditions-watcher.rrgen.dev",
      .setup =
          [](rr::OperatorContext& op) {
            if (op.options.args.empty()) {
              throw std::invalid_argument("no kinds to watch: conditions-watcher [flags] -- apps/v1/Deployment ...");
            }
            for (const std::string& text : op.options.args) {
              const rr::KindInfo kind = op.api->kind_info(watcher::parse_kind(text));
              op.add_controller(kind.resource_group() + "-watcher",
                                [kind](const rr::Config& config) { return watcher::conditions_watcher(config, kind); });
            }
          },
  };
  return rr::run_operator(argc, argv, operator_main);
}
