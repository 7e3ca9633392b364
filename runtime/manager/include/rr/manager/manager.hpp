// rr::Manager runs an operator's parts, as controller-runtime's manager does:
//  - Runnables (controllers, caches, servers) on their own threads: those that need leader
//    election once this process leads (a coordination.k8s.io/v1 Lease), the others at once;
//  - the metrics server (GET /metrics from its own rr::metrics::Registry; HTTPS, each request
//    authenticated and authorized through the API client, unless --metrics-secure=false) and the
//    probe server (plain HTTP: /healthz, /readyz in pkg/healthz's format; readyz includes every
//    started runnable's ready());
//  - the webhook server (HTTPS on --webhook-port), when a webhook was registered on
//    webhook_server(); /healthz then checks it answers TLS (check "webhook");
//  - shutdown: on the stop request every runnable is asked to stop (leader-election ones first),
//    the manager waits up to the graceful shutdown timeout, then releases the lease and stops the
//    servers. Losing the lease, or a runnable throwing, ends run() with exit code 1. Runnables
//    that outlast run() are awaited by the destructor (see ~Manager()).
//
//   int main(int argc, char** argv) {
//     auto options = rr::ManagerOptions::parse(argc, argv);     // FlagError → exit 2
//     auto api = /* rr::Client from options.kubeconfig */;
//     rr::Manager manager(options, api);
//     manager.add(std::make_shared<MyController>(...));
//     return manager.run_until_signal();                         // SIGTERM → graceful stop
//   }
// See docs/runtime/22-manager.md.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "rr/manager/health_checks.hpp"
#include "rr/manager/manager_options.hpp"
#include "rr/reconcilers/logger.hpp"

namespace rr {

class Client;
class Runnable;
namespace metrics {
class Registry;
}
namespace webhook {
class Server;
}

class Manager {
 public:
  // Throws std::invalid_argument when leader election is on and the options are incomplete
  // (no --leader-election-id, no namespace outside a cluster, no client, bad durations), when
  // secure metrics are on without a client, or when a bind address is malformed. The logger defaults to
  // make_logger(options) (JSON to stderr).
  Manager(ManagerOptions options, std::shared_ptr<Client> api);
  Manager(ManagerOptions options, std::shared_ptr<Client> api, Logger log);
  // Not while run() runs. Waits for every runnable thread still running: after run() returned 1
  // with an overrun grace period or a lost lease, runnables may still finish in-flight work using
  // what the manager owns (metrics(), logger(), the runnables). All were asked to stop, so this
  // blocks as long as the slowest takes to return (and logs their names); a runnable that never
  // returns blocks it for ever. A process that must end at once (controller-runtime exits after
  // such a run()) exits without destroying the manager, as run_operator() does.
  ~Manager();
  Manager(const Manager&) = delete;
  Manager& operator=(const Manager&) = delete;

  // Before run(). Throws std::logic_error once run() has begun.
  void add(std::shared_ptr<Runnable> runnable);
  void add_healthz_check(std::string name, HealthCheck check);  // "ping" is there already
  void add_readyz_check(std::string name, HealthCheck check);
  // Called before each scrape of /metrics, e.g. to refresh gauges (WorkQueue::update_unfinished_work).
  void add_metrics_collector(std::function<void()> collect);

  // Blocks until `stop` is requested, leadership is lost or a runnable fails; then shuts down.
  // Returns the process exit code: 0 after a clean stop, 1 otherwise (the reason is logged).
  // Once per Manager.
  int run(std::stop_token stop);
  // run() until SIGINT or SIGTERM (a second signal exits the process at once with status 1).
  int run_until_signal();
  // True once no runnable thread runs (at once before run() and after a clean run()); false if
  // some still ran when `timeout` passed.
  bool wait_for_runnables(std::chrono::steady_clock::duration timeout);

  metrics::Registry& metrics();
  // Admission and conversion handlers are registered here before run(); run() starts the server
  // (with --webhook-port and --webhook-cert-dir) only when one was, and stops it at shutdown.
  webhook::Server& webhook_server();
  const std::shared_ptr<Client>& client() const noexcept;
  const Logger& logger() const noexcept;
  const ManagerOptions& options() const noexcept;

  // The bound ports once run() has started the servers (0 before, or when disabled): with
  // "127.0.0.1:0" this is the ephemeral port the system chose.
  int metrics_port() const;
  int health_probe_port() const;
  int webhook_port() const;
  // True while this process holds the lease (always false without leader election).
  bool is_leader() const;
  // The leader-election identity: "<hostname>_<random uuid>" ("" without leader election).
  std::string identity() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
