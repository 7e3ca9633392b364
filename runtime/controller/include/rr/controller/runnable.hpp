// What the manager runs: controllers, informer caches, servers. controller-runtime's
// manager.Runnable plus LeaderElectionRunnable: start() blocks until `stop` is requested (or the
// runnable fails), and the manager starts runnables that need leader election only once this
// process leads.
#pragma once
#include <stop_token>
#include <string>

namespace rr {

class Runnable {
 public:
  virtual ~Runnable() = default;
  // Runs until `stop` is requested; returns after in-flight work has finished. Throwing ends the
  // manager (it stops every other runnable and exits non-zero).
  virtual void start(std::stop_token stop) = 0;
  // Controllers: true (only the leader reconciles). Caches and servers: false.
  virtual bool needs_leader_election() const { return true; }
  // For logs and /readyz check names.
  virtual std::string name() const = 0;
  // /readyz: a controller is ready once its caches have synced.
  virtual bool ready() const { return true; }
};

}  // namespace rr
