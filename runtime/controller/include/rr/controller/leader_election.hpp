// Leader election on a coordination.k8s.io/v1 Lease with client-go's LeaderElector semantics
// (k8s.io/client-go/tools/leaderelection). The step functions (try_acquire_or_renew, release) do
// one round each, so tests drive them with a FakeClock; run() is the loop an operator uses.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "rr/controller/clock.hpp"

namespace rr {

class Client;

// client-go's defaults (and controller-runtime's): 15 s / 10 s / 2 s.
struct LeaderElectionConfig {
  std::string namespace_;  // of the Lease
  std::string name;        // of the Lease
  std::string identity;    // this candidate, e.g. the pod name plus a random suffix
  Clock::duration lease_duration = std::chrono::seconds(15);
  Clock::duration renew_deadline = std::chrono::seconds(10);
  Clock::duration retry_period = std::chrono::seconds(2);
  bool release_on_cancel = true;

  // Throws std::invalid_argument with client-go's messages unless
  // lease_duration > renew_deadline > retry_period * 1.2 > 0 and the lease and identity are named.
  void validate() const;
};

struct LeaderElectionCallbacks {
  // Called on run()'s thread when this candidate becomes leader; must not block. The token is
  // stopped when leadership ends (lost, or run() stopped), like client-go's leading context.
  std::function<void(std::stop_token leading)> on_started_leading;
  // Called when run() returns, whether or not it ever led (as client-go does).
  std::function<void()> on_stopped_leading;
  // Called when the observed holder changes ("" once the lease is released).
  std::function<void(const std::string& identity)> on_new_leader;
  // Called on run()'s thread when a round ends on a failed API call, with what failed (client-go's
  // words: "error retrieving resource lock <ns>/<name>", "error initially creating leader election
  // record", "Failed to update lock") and the error, which client-go logs as errors. Without it a
  // candidate refused by the API server (a 403) would wait for ever without a word.
  std::function<void(const std::string& what, const std::string& error)> on_error;
};

class LeaderElector {
 public:
  // `clock` must outlive the elector. It measures lease expiry (from when this elector last saw
  // the record change, never the remote timestamps) and stamps acquireTime/renewTime.
  LeaderElector(std::shared_ptr<Client> client, LeaderElectionConfig config, Clock& clock = Clock::real());
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  // One round of client-go's tryAcquireOrRenew. True when this candidate holds the lease after
  // the round. API failures (conflicts included) make a failed round, never an exception.
  bool try_acquire_or_renew();
  // Gives the lease up (empty holder, leaseDurationSeconds 1) so another candidate takes it at
  // once. True when there is nothing left to give up.
  bool release();

  // Thread-safe: may be called while run() loops on another thread.
  bool is_leader() const;
  std::string leader() const;      // the observed holder, "" when none
  std::string last_error() const;  // the last failed API call of a round, for logs

  // Acquires (retrying every retry_period with jitter 1.2), then renews every retry_period until
  // a renewal fails for renew_deadline or `stop` is requested; releases if release_on_cancel.
  void run(std::stop_token stop, LeaderElectionCallbacks callbacks);

  const LeaderElectionConfig& config() const noexcept { return config_; }

 private:
  struct State;
  bool renew_within_deadline(const std::stop_token& stop);
  bool sleep_for(const std::stop_token& stop, Clock::duration d);

  std::shared_ptr<Client> client_;
  LeaderElectionConfig config_;
  Clock& clock_;
  std::unique_ptr<State> state_;
};

}  // namespace rr
