// The manager's settings and its command-line flags, named and defaulted as controller-runtime's
// (and kubebuilder's main.go) name them, so an rrgen operator's Deployment reads like a Go one's.
//
//   int main(int argc, char** argv) {
//     rr::ManagerOptions options;
//     try {
//       options = rr::ManagerOptions::parse(argc, argv);
//     } catch (const rr::FlagError& e) {
//       std::cerr << e.what() << "\n" << rr::ManagerOptions::usage(argv[0]);
//       return 2;
//     }
//     if (options.show_help) { std::cout << rr::ManagerOptions::usage(argv[0]); return 0; }
//     ...
//   }
#pragma once
#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rr/reconcilers/logger.hpp"

namespace rr {

// A bad command line: unknown flag, missing or invalid value. main() prints it and exits 2.
class FlagError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "host:port" as Go's net.Listen takes it: ":8080" is every interface, "127.0.0.1:0" an
// ephemeral port on loopback, "[::1]:9090" IPv6.
struct BindAddress {
  std::string host;  // "0.0.0.0" for an empty host
  int port = 0;      // 0: the system picks one
};
// nullopt for "0" and "" (the endpoint is disabled); std::invalid_argument when malformed.
std::optional<BindAddress> parse_bind_address(std::string_view text);

struct ManagerOptions {
  // Flag: --kubeconfig. Paths to a kubeconfig; only required if out-of-cluster. The manager does
  // not read it: main() builds the API client from it (rr::load_default_config).
  std::string kubeconfig;
  // Flag: --context (ours; controller-runtime reads it from the kubeconfig only).
  std::string context;

  // Flags: --leader-elect, --leader-election-id (the Lease's name), --leader-election-namespace
  // (default: the pod's service-account namespace when in a cluster).
  bool leader_elect = false;
  std::string leader_election_id;
  std::string leader_election_namespace;
  // Flags: --leader-elect-lease-duration, --leader-elect-renew-deadline, --leader-elect-retry-period.
  std::chrono::nanoseconds lease_duration = std::chrono::seconds(15);
  std::chrono::nanoseconds renew_deadline = std::chrono::seconds(10);
  std::chrono::nanoseconds retry_period = std::chrono::seconds(2);

  // Flags: --metrics-bind-address, --health-probe-bind-address; "0" disables. The metrics default
  // is kubebuilder's config/default value (its main.go defaults the flag to "0"): metrics on, over
  // HTTPS. With --metrics-secure=false pass the plain port too (":8080").
  std::string metrics_bind_address = ":8443";
  std::string health_probe_bind_address = ":8081";
  // Flag: --metrics-secure. HTTPS, each request authenticated with a TokenReview and authorized
  // with a SubjectAccessReview through the manager's client (controller-runtime's
  // filters.WithAuthenticationAndAuthorization); false serves plain HTTP to anyone.
  bool metrics_secure = true;
  // Flags: --metrics-cert-path, --metrics-cert-name, --metrics-cert-key. The serving certificate
  // <path>/<name> and key <path>/<key>, read again when they change; without a path a self-signed
  // certificate for localhost is generated at start.
  std::string metrics_cert_path;
  std::string metrics_cert_name = "tls.crt";
  std::string metrics_cert_key = "tls.key";

  // Flags: --webhook-port, --webhook-cert-dir (controller-runtime's webhook.Options Port and
  // CertDir). The webhook server starts only when a handler was registered
  // (Manager::webhook_server()); it serves on every interface, or on webhook_host (no flag).
  int webhook_port = 9443;
  std::string webhook_cert_dir = "/tmp/k8s-webhook-server/serving-certs";
  std::string webhook_host = "0.0.0.0";
  // Flag: --graceful-shutdown-timeout. How long shutdown waits for runnables to return; 0 does
  // not wait, a negative value waits for ever (controller-runtime's GracefulShutdownTimeout).
  std::chrono::nanoseconds graceful_shutdown_timeout = std::chrono::seconds(30);

  // Flags: --zap-log-level (debug|info|error) and --zap-devel. Production (the default) logs JSON
  // at info; development logs console text at debug unless --zap-log-level says otherwise.
  LogLevel log_level = LogLevel::Info;
  bool log_level_set = false;  // --zap-log-level was given (it wins over --zap-devel's debug)
  bool log_development = false;

  // Flag: --max-concurrent-reconciles (ours): workers per controller.
  int max_concurrent_reconciles = 1;
  // Flag: --use-priority-queue (ours; controller-runtime's UsePriorityQueue, on by default):
  // ControllerOptions::use_priority_queue of every controller.
  bool use_priority_queue = true;
  // Flag: --reconcile-timeout (ours; controller-runtime's ReconciliationTimeout): the default
  // ControllerOptions::reconcile_timeout; 0: none. A reconciler's spec may set its own.
  std::chrono::nanoseconds reconcile_timeout{0};

  // Flag: --namespaces (ours; controller-runtime's cache.Options.DefaultNamespaces): a comma-separated
  // list of namespaces the informer cache watches, one list and watch per namespace, so that a Role
  // in each is enough; empty: every namespace. Cluster-scoped kinds are watched whole regardless.
  std::vector<std::string> namespaces;
  // Flag: --namespace-selector (ours; OLM's OperatorGroup spec.selector): a label selector
  // ("team=a,env in (prod)"); the cache watches Namespaces and caches namespaced kinds from those
  // that match as they come and go (InformerCacheOptions::namespace_selector). Excludes --namespaces.
  std::string namespace_selector;

  // Flag: --events-api (ours): "events.k8s.io/v1" (the default, controller-runtime's since v0.23:
  // Events with series) or "core/v1" (count and lastTimestamp, for clusters that do not serve
  // events.k8s.io/v1): ControllerOptions::events_api of every controller.
  bool core_v1_events = false;

  // Flags: --kube-api-qps, --kube-api-burst (kube-controller-manager's names): the API client's
  // client-side rate limit. The defaults are controller-runtime's GetConfig values (client-go's own
  // are 5 and 10); a negative qps turns the limit off, as in client-go.
  float kube_api_qps = 20.0F;
  int kube_api_burst = 30;

  // -h / --help was given: print usage() and exit 0.
  bool show_help = false;
  // Positional arguments: those after "--" or after the first non-flag argument (Go's flag.Args()).
  std::vector<std::string> args;

  // Parses argv[1..argc): "--flag=value", "--flag value" and single-dash "-flag" forms. Boolean
  // flags take no separate value ("--leader-elect", "--leader-elect=false"), as in Go.
  // Throws FlagError: "unknown flag --x", "flag needs an argument: --kubeconfig",
  // "invalid value for --leader-elect-lease-duration: time: invalid duration \"x\"".
  static ManagerOptions parse(int argc, const char* const* argv);
  static ManagerOptions parse(const std::vector<std::string>& arguments);  // without the program name

  // The flags with their defaults and help, in Go's flag.PrintDefaults layout.
  static std::string usage(std::string_view program);

  // The level the logger filters at: log_level when set, else debug in development, else info.
  LogLevel effective_log_level() const;
};

}  // namespace rr
