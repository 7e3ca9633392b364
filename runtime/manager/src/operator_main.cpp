#include "rr/manager/operator_main.hpp"
#include "rr/reconcilers/error.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "rr/controller/informer_cache.hpp"
#include "rr/controller/informer_cache_metrics.hpp"
#include "rr/core/go_strconv.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/manager/json_log.hpp"
#include "rr/manager/manager_options.hpp"
#include "rr/manager/rest_client_metrics.hpp"
#include "rr/rest_config/kubeconfig.hpp"

namespace rr {

namespace {

constexpr std::string_view local_cluster_flag = "--local-cluster-kubeconfig";
constexpr std::string_view insecure_http_flag = "--local-cluster-insecure-http";

// Go's boolean flag forms: "--flag", "--flag=true", "--flag=false" (and 1/0, t/f).
std::optional<bool> bool_flag(std::string_view arg, std::string_view flag) {
  if (!arg.starts_with(flag)) return std::nullopt;
  const std::string_view tail = arg.substr(flag.size());
  if (tail.empty()) return true;
  if (!tail.starts_with("=")) return std::nullopt;
  const std::string_view value = tail.substr(1);
  if (const auto parsed = parse_go_bool(value)) return *parsed;
  throw FlagError("invalid boolean value \"" + std::string(value) + "\" for " + std::string(flag));
}

// ManagerOptions knows controller-runtime's flags; these are ours, so they are taken out of the
// command line first. Throws FlagError when --local-cluster-kubeconfig has no value.
std::vector<std::string> take_local_cluster_flags(int argc, char** argv, std::optional<std::string>& kubeconfig_out,
                                                  bool& insecure_http) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--") {
      for (; i < argc; ++i) rest.emplace_back(argv[i]);
      break;
    }
    if (arg.starts_with("-") && !arg.starts_with("--")) arg.remove_prefix(1);  // Go accepts -flag
    if (const auto insecure = bool_flag(arg, insecure_http_flag)) {
      insecure_http = *insecure;
      continue;
    }
    if (arg.starts_with(local_cluster_flag)) {
      const std::string_view tail = arg.substr(local_cluster_flag.size());
      if (tail.starts_with("=")) {
        kubeconfig_out = std::string(tail.substr(1));
      } else if (tail.empty() && i + 1 < argc) {
        kubeconfig_out = argv[++i];
      } else if (tail.empty()) {
        throw FlagError("flag needs an argument: " + std::string(local_cluster_flag));
      } else {
        rest.emplace_back(argv[i]);  // another flag with this prefix: ManagerOptions reports it
        continue;
      }
      if (kubeconfig_out->empty()) throw FlagError("flag needs an argument: " + std::string(local_cluster_flag));
      continue;
    }
    rest.emplace_back(argv[i]);
  }
  return rest;
}

// The flag is listed only when the operator has opted in to the local cluster mode.
std::string usage(const OperatorMain& main, std::string_view program) {
  std::string text = ManagerOptions::usage(program.empty() ? main.name : program);
  if (main.local_cluster) {
    text +=
        "  " + std::string(local_cluster_flag) +
        " string\n"
        "    \tstart an embedded local cluster on 127.0.0.1 (HTTPS, a throw-away CA), write its kubeconfig to this\n"
        "    \tfile and run against it\n"
        "  " +
        std::string(insecure_http_flag) +
        "\n"
        "    \tserve the local cluster over plain HTTP without authentication (no real cluster does; for tools\n"
        "    \tthat cannot do TLS)\n";
  }
  return text;
}

std::string no_local_cluster_mode(const OperatorMain& main) {
  return std::string(local_cluster_flag) + ": " + main.name +
         " is built without the local cluster mode; to enable it, link rr::local_cluster_mode and set "
         "OperatorMain::local_cluster = rr::local_cluster_mode(...) "
         "(rr/local_cluster_mode/local_cluster_mode.hpp, docs/runtime/25-operator-main.md)";
}

// Stops the client reporting to a registry that is about to be destroyed.
struct DetachClientMetrics {
  explicit DetachClientMetrics(HttpClient& c) : client(c) {}
  DetachClientMetrics(const DetachClientMetrics&) = delete;
  DetachClientMetrics& operator=(const DetachClientMetrics&) = delete;
  ~DetachClientMetrics() { client.set_metrics(nullptr); }
  HttpClient& client;
};

}  // namespace

std::shared_ptr<Controller> OperatorContext::add_controller(std::string name, Controller::ReconcilerFactory factory) {
  ControllerOptions controller_options;
  controller_options.name = std::move(name);
  return add_controller(std::move(controller_options), std::move(factory));
}

std::shared_ptr<Controller> OperatorContext::add_controller(ControllerOptions controller_options,
                                                            Controller::ReconcilerFactory factory) {
  controller_options.max_concurrent_reconciles = options.max_concurrent_reconciles;
  controller_options.use_priority_queue = options.use_priority_queue;
  if (options.reconcile_timeout.count() > 0) controller_options.reconcile_timeout = options.reconcile_timeout;
  if (options.core_v1_events) controller_options.events_api = EventsApi::core_v1;
  controller_options.log = manager.logger().named(controller_options.name);
  auto controller = std::make_shared<Controller>(std::move(controller_options), std::move(factory), api, cache,
                                                 &manager.metrics());
  manager.add(controller);
  return controller;
}

int run_operator(int argc, char** argv, const OperatorMain& main) {
  const std::string_view program = argc > 0 ? std::string_view(argv[0]) : std::string_view(main.name);
  ManagerOptions options;
  std::optional<std::string> local_kubeconfig;
  bool insecure_http = false;
  try {
    options = ManagerOptions::parse(take_local_cluster_flags(argc, argv, local_kubeconfig, insecure_http));
    if (local_kubeconfig && !main.local_cluster) throw FlagError(no_local_cluster_mode(main));
    if (insecure_http && !local_kubeconfig) {
      throw FlagError(std::string(insecure_http_flag) + " needs " + std::string(local_cluster_flag));
    }
  } catch (const FlagError& e) {
    std::cerr << e.what() << "\n" << usage(main, program);
    return 2;
  }
  if (options.show_help) {
    std::cout << usage(main, program);
    return 0;
  }
  if (options.leader_election_id.empty()) options.leader_election_id = main.leader_election_id;
  const Logger log = make_logger(options).named(main.name);

  try {
    std::unique_ptr<LocalCluster> local;  // outlives the manager, which talks to it
    RestConfig rest;
    if (local_kubeconfig) {
      local = main.local_cluster(LocalClusterRequest{*local_kubeconfig, insecure_http});
      if (!local) throw std::runtime_error("the local cluster mode started no cluster");
      // The operator connects as kubectl does, with what the kubeconfig says (CA, client certificate).
      rest = load_kubeconfig_file(*local_kubeconfig).config;
      if (options.leader_election_namespace.empty()) options.leader_election_namespace = "default";
      log.with("url", rest.host).with("kubeconfig", *local_kubeconfig).info("local cluster started");
    } else {
      const LoadedConfig loaded = load_default_config(ConfigSources{options.kubeconfig, options.context});
      rest = loaded.config;
      if (options.leader_election_namespace.empty()) options.leader_election_namespace = loaded.namespace_name;
      log.with("host", rest.host).with("source", loaded.source).info("connecting");
    }
    if (rest.user_agent.empty()) rest.user_agent = main.name;
    // --kube-api-qps / --kube-api-burst, by default controller-runtime's GetConfig values (20 / 30
    // where client-go has 5 / 10): an operator with several informers and writers per reconcile
    // would otherwise queue on the limiter. rr::RateLimiter takes qps <= 0 as no limit.
    rest.qps = options.kube_api_qps;
    rest.burst = options.kube_api_burst;
    auto api = std::make_shared<HttpClient>(rest);

    Manager manager(options, api, log);
    // rest_client_* on the manager's registry; detached before the manager (and its registry) goes.
    api->set_metrics(metrics::rest_client_metrics(manager.metrics()));
    const DetachClientMetrics detach_client_metrics{*api};
    // A list or watch the API server refuses (a 403 for a verb the role lacks, say) is logged at
    // each retry, as client-go's reflector does ("Failed to watch"); otherwise the informer would
    // retry in silence and the controller wait for a sync that never comes.
    InformerCacheOptions cache_options;
    cache_options.informer.on_error = [log](std::string_view message) {
      log.error(Error::make(std::string(message)), "Failed to watch");
    };
    // --namespaces: one list and watch per namespace (a Role in each suffices), else every namespace.
    cache_options.namespaces = options.namespaces;
    // --namespace-selector: the namespaces whose labels match, as they come and go.
    cache_options.namespace_selector = options.namespace_selector;
    auto cache = std::make_shared<InformerCache>(api, std::move(cache_options));
    manager.add(cache);
    manager.add_metrics_collector(
        [objects = std::make_shared<metrics::InformerCacheMetrics>(manager.metrics(), cache)] { objects->collect(); });
    OperatorContext context{manager, api, cache, manager.options()};
    main.setup(context);
    const int code = manager.run_until_signal();
    log.with("exitCode", std::to_string(code)).info("stopped");
    if (!manager.wait_for_runnables(std::chrono::seconds(0))) {
      // An overrun grace period or a lost lease (another replica leads already): as
      // controller-runtime's main(), the process ends now, cutting what still runs. Unwinding
      // would make ~Manager() wait for those runnables instead.
      log.info("exiting without waiting for the runnables still running");
      std::cout.flush();
      std::cerr.flush();
      std::fflush(nullptr);
      std::_Exit(code);
    }
    return code;
  } catch (const std::exception& e) {
    log.error(Error::from(e), "operator failed");
    return 1;
  }
}

}  // namespace rr
