// The soak test: the WebApp operator, wired as rr::run_operator wires it (rr::Manager, a shared
// InformerCache, a Controller of 4 workers over an rr::HttpClient), against the local cluster
// (rr::ApiServer over rr::Cluster on 127.0.0.1) that injects faults: failed requests (500, 429
// with Retry-After, 409 on writes), latency, watch streams cut, resourceVersions expired (410).
// A separate client creates RRGEN_SOAK_PARENTS WebApps (default 1,000); all must become Ready.
// Then, with the faults off, every WebApp has exactly one Deployment and one Service, owned by
// it, and nothing is stuck. All are deleted (faults on again): the finalizer removes each DNS
// record, the children are collected. Last, the manager stops cleanly within its grace period.
// The cluster serves HTTPS and enforces RBAC: the operator runs as its ServiceAccount with exactly
// the RBAC rrgen generated for the sample (config/rbac), the users' client as the admin.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "generated_rbac.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/builtin_kinds.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/manager/manager.hpp"
#include "rr/manager/operator_main.hpp"
#include "rr/rest_config/kubeconfig.hpp"
#include "soak_observer.hpp"
#include "soak_support.hpp"
#include "webapp_hooks.hpp"

namespace {

using namespace std::chrono_literals;
using rr::Json;
using Seconds = std::chrono::duration<double>;

constexpr const char* config_map_name = "soak-config";

struct SoakParameters {
  long parents = std::max(1L, rr::e2e::env_number("RRGEN_SOAK_PARENTS", 1000));
  std::chrono::seconds converge_timeout{rr::e2e::env_number("RRGEN_SOAK_CONVERGE_SECONDS", 600)};
  // The operator's client-side rate limit (0: none). run_operator keeps client-go's 5 qps, at
  // which 1,000 parents take many minutes; the soak is about correctness under faults.
  long operator_qps = rr::e2e::env_number("RRGEN_SOAK_QPS", 0);
  long namespaces() const { return std::clamp(parents / 100, 1L, 10L); }
};

// RRGEN_SOAK_FAIL_CODES: the codes failed requests get, e.g. "500,429" (default 500,429,409).
std::vector<int> fail_codes() {
  const char* text = std::getenv("RRGEN_SOAK_FAIL_CODES");
  if (text == nullptr || *text == '\0') return {500, 429, 409};
  std::vector<int> codes;
  std::istringstream list(text);
  for (std::string code; std::getline(list, code, ',');) codes.push_back(std::stoi(code));
  return codes;
}

// The faults, in per mille where a rate (RRGEN_SOAK_FAIL_PERMILLE, ..._DROP_PERMILLE,
// ..._EXPIRE_PERMILLE, RRGEN_SOAK_LATENCY_MS, RRGEN_SOAK_SEED override them).
rr::FaultOptions soak_faults() {
  rr::FaultOptions faults;
  faults.fail_rate = static_cast<double>(rr::e2e::env_number("RRGEN_SOAK_FAIL_PERMILLE", 50)) / 1000;
  faults.fail_codes = fail_codes();
  faults.retry_after_seconds = 1;
  faults.latency = std::chrono::milliseconds(rr::e2e::env_number("RRGEN_SOAK_LATENCY_MS", 2));
  // Per event sent and per idle second of each watch.
  faults.drop_watch_rate = static_cast<double>(rr::e2e::env_number("RRGEN_SOAK_DROP_PERMILLE", 10)) / 1000;
  // Of the lists and watches that resume from a resourceVersion.
  faults.expire_rate = static_cast<double>(rr::e2e::env_number("RRGEN_SOAK_EXPIRE_PERMILLE", 100)) / 1000;
  faults.seed = static_cast<std::uint64_t>(rr::e2e::env_number("RRGEN_SOAK_SEED", 20240605));
  return faults;
}

std::string describe(const rr::FaultOptions& f) {
  std::string codes;
  for (int code : f.fail_codes) codes += (codes.empty() ? "" : "/") + std::to_string(code);
  return std::to_string(f.fail_rate * 100) + "% of requests fail (" + codes + "), " + std::to_string(f.latency.count()) +
         " ms latency, watch drop rate " + std::to_string(f.drop_watch_rate) + ", " +
         std::to_string(f.expire_rate * 100) + "% of resumes expired, seed " + std::to_string(f.seed);
}

std::string namespace_name(long i) { return "soak-" + std::to_string(i); }
std::string app_name(long i) {
  char name[32];
  std::snprintf(name, sizeof name, "app-%04ld", i);
  return name;
}
std::string hostname_of(const std::string& name, const std::string& ns) { return name + "." + ns + ".example.com"; }

Json web_app(const std::string& ns, const std::string& name, long i) {
  return Json{{"apiVersion", "web.example.rrgen.dev/v1"},
              {"kind", "WebApp"},
              {"metadata", {{"namespace", ns}, {"name", name}}},
              {"spec",
               {{"image", "registry.example/soak:1.0"},
                {"replicas", 1 + i % 3},
                {"configMapName", config_map_name},
                {"hostname", hostname_of(name, ns)}}}};
}

bool condition_true(const Json& object, const std::string& type) {
  const Json conditions = object.value("/status/conditions"_json_pointer, Json::array());
  return std::any_of(conditions.begin(), conditions.end(), [&](const Json& c) {
    return c.value("type", "") == type && c.value("status", "") == "True";
  });
}

// Ready, for the generation the spec has now.
bool converged(const Json& app) {
  return condition_true(app, "Ready") &&
         app.value("/status/observedGeneration"_json_pointer, std::int64_t{-1}) ==
             app.value("/metadata/generation"_json_pointer, std::int64_t{-2});
}

std::vector<Json> items(const Json& list) { return list.value("items", Json::array()).get<std::vector<Json>>(); }

bool in_soak_namespace(const Json& object) {
  return object.value("/metadata/namespace"_json_pointer, std::string()).starts_with("soak-");
}

// What is wrong with the children of one kind: each WebApp must own exactly one, named as it is,
// through a controller ownerReference with its uid; no child may be left without a WebApp.
std::vector<std::string> child_problems(const std::string& kind, const std::vector<Json>& apps,
                                        const std::vector<Json>& children) {
  std::map<std::string, std::string> app_by_uid;  // uid -> "ns/name"
  for (const Json& app : apps) {
    app_by_uid[app["metadata"]["uid"].get<std::string>()] =
        app["metadata"]["namespace"].get<std::string>() + "/" + app["metadata"]["name"].get<std::string>();
  }
  std::map<std::string, int> owned;  // by owner uid
  std::vector<std::string> problems;
  for (const Json& child : children) {
    if (!in_soak_namespace(child)) continue;
    const std::string key =
        child["metadata"]["namespace"].get<std::string>() + "/" + child["metadata"]["name"].get<std::string>();
    const Json refs = child["metadata"].value("ownerReferences", Json::array());
    std::vector<Json> controllers;
    for (const Json& ref : refs) {
      if (ref.value("controller", false)) controllers.push_back(ref);
    }
    if (controllers.size() != 1 || controllers[0].value("kind", "") != "WebApp") {
      problems.push_back(kind + " " + key + " has no single WebApp controller: " + refs.dump());
      continue;
    }
    const auto owner = app_by_uid.find(controllers[0].value("uid", ""));
    if (owner == app_by_uid.end()) {
      problems.push_back(kind + " " + key + " is owned by a WebApp that does not exist: " + refs.dump());
      continue;
    }
    if (owner->second != key) problems.push_back(kind + " " + key + " is owned by WebApp " + owner->second);
    ++owned[owner->first];
  }
  for (const auto& [uid, key] : app_by_uid) {
    const int n = owned.count(uid) != 0 ? owned[uid] : 0;
    if (n != 1) problems.push_back("WebApp " + key + " owns " + std::to_string(n) + " " + kind + "s");
  }
  return problems;
}

void print_problems(const std::string& what, const std::vector<std::string>& problems) {
  if (problems.empty()) return;
  std::cout << what << ": " << problems.size() << " problems, the first ones:\n";
  for (std::size_t i = 0; i < problems.size() && i < 10; ++i) std::cout << "  " << problems[i] << "\n";
}

}  // namespace

TEST_CASE("soak: parents converge under faults with no lost or duplicated children, then the operator stops cleanly") {
  const SoakParameters params;
  const long parents = params.parents;
  std::cout << "soak: " << parents << " WebApps in " << params.namespaces()
            << " namespaces, 4 workers; faults: " << describe(soak_faults()) << "\n"
            << std::flush;

  // The local cluster, as run_operator's embedded one: namespaces required, the WebApp kind typed
  // (defaulting and validation as its CRD's schema), Deployments report their replicas.
  rr::ClusterOptions cluster_options;
  cluster_options.require_namespaces = true;
  auto cluster = std::make_shared<rr::Cluster>(cluster_options);
  cluster->register_kind<webapp::WebApp>();
  const rr::DevCertificates certs = rr::make_dev_certificates();
  rr::ApiServerOptions server_options;
  server_options.faults = soak_faults();
  server_options.tls = rr::tls_options(certs);
  server_options.kubeconfig_user = rr::kubeconfig_user(certs);
  server_options.authorization = rr::AuthorizationMode::RBAC;
  rr::register_builtin_kinds(*cluster);  // before the RBAC objects are created; the server need not
  server_options.register_builtin_kinds = false;
  const rr::e2e::OperatorIdentity identity = rr::e2e::apply_generated_rbac(*cluster, RRGEN_WEBAPP_CONFIG_DIR);
  server_options.static_tokens = {identity.token};
  rr::ApiServer server(cluster, server_options);
  server.start();
  std::cout << "soak: the operator runs as " << identity.token.user << " with " << identity.rules
            << " generated RBAC rules; RBAC enforced over HTTPS\n"
            << std::flush;
  rr::WorkloadSimulator workloads(cluster);
  // The test's own view of the store, event-driven (see soak_observer.hpp).
  const rr::KindInfo web_apps = *cluster->find_kind({"web.example.rrgen.dev", "v1", "WebApp"});
  const rr::KindInfo deployments = *cluster->find_kind({"apps", "v1", "Deployment"});
  const rr::KindInfo services = *cluster->find_kind({"", "v1", "Service"});
  rr::e2e::StoreObserver app_view(cluster, web_apps, converged);
  rr::e2e::StoreObserver deployment_view(cluster, deployments, {}, in_soak_namespace);
  rr::e2e::StoreObserver service_view(cluster, services, {}, in_soak_namespace);

  // The operator: run_operator's wiring (OperatorContext::add_controller is what setup() calls).
  rr::KubeconfigUser operator_user;
  operator_user.name = "operator";
  operator_user.token = identity.token.token;
  rr::RestConfig operator_config = rr::load_kubeconfig_text(server.kubeconfig_yaml(operator_user)).config;
  operator_config.user_agent = "webapp-operator-soak";
  operator_config.qps = static_cast<float>(params.operator_qps);
  auto api = std::make_shared<rr::HttpClient>(operator_config);
  rr::ManagerOptions options;
  options.metrics_bind_address = "0";
  options.health_probe_bind_address = "0";
  options.max_concurrent_reconciles = 4;
  options.graceful_shutdown_timeout = std::chrono::seconds(30);
  rr::e2e::LogTally logs;
  rr::Manager manager(options, api, logs.logger());
  auto cache = std::make_shared<rr::InformerCache>(api);
  manager.add(cache);
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  auto dns = std::make_shared<webapp::InMemoryDns>();
  hooks->dns = dns;
  rr::OperatorContext context{manager, api, cache, manager.options()};
  context.add_controller("webapp", [hooks](const rr::Config& config) { return webapp::WebAppReconciler(config, hooks); });
  rr::e2e::RunningManager running(manager);

  // The users' client: its own connection, no rate limit, the client's default retries.
  rr::RestConfig user_config = rr::load_kubeconfig_text(server.kubeconfig_yaml()).config;
  user_config.qps = 0;
  user_config.user_agent = "soak-user";
  rr::HttpClient user(user_config);
  const rr::KindInfo namespaces_kind = user.kind_info({"", "v1", "Namespace"});
  const rr::KindInfo config_maps = user.kind_info({"", "v1", "ConfigMap"});
  REQUIRE(user.kind_info(web_apps.gvk) == web_apps);  // served: the HTTP clients find it by discovery
  auto already_exists = [](const rr::Status& s) { return rr::is_already_exists(s); };
  auto not_found = [](const rr::Status& s) { return rr::is_not_found(s); };

  // ---- create: the namespaces with their shared ConfigMap, then the WebApps from 4 threads.
  const auto began = std::chrono::steady_clock::now();
  int user_retries = 0;
  for (long n = 0; n < params.namespaces(); ++n) {
    const std::string ns = namespace_name(n);
    user_retries += rr::e2e::with_retries(
        [&] { user.create(namespaces_kind, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}}); },
        50, already_exists);
    user_retries += rr::e2e::with_retries(
        [&] {
          user.create(config_maps, Json{{"apiVersion", "v1"},
                                        {"kind", "ConfigMap"},
                                        {"metadata", {{"namespace", ns}, {"name", config_map_name}}},
                                        {"data", {{"GREETING", "hello from " + ns}}}});
        },
        50, already_exists);
  }
  {
    std::atomic<int> retries{0};
    std::atomic<int> failures{0};
    std::vector<std::jthread> creators;
    constexpr long threads = 4;
    for (long t = 0; t < threads; ++t) {
      creators.emplace_back([&, t] {
        for (long i = t; i < parents; i += threads) {
          try {
            retries += rr::e2e::with_retries(
                [&] { user.create(web_apps, web_app(namespace_name(i % params.namespaces()), app_name(i), i)); }, 50,
                already_exists);
          } catch (const std::exception& e) {
            if (failures++ < 5) std::cout << "create " << app_name(i) << " failed: " << e.what() << "\n";
          }
        }
      });
    }
    creators.clear();  // joins
    user_retries += retries;
    REQUIRE(failures == 0);
  }
  const double created_after = Seconds(std::chrono::steady_clock::now() - began).count();
  std::cout << "soak: " << parents << " WebApps created in " << created_after << " s (" << user_retries
            << " retries of the user's calls)\n"
            << std::flush;

  // ---- converge: watched in the store itself (no faults, no load on the server).
  long ready = 0;
  auto count_ready = [&] {
    ready = static_cast<long>(app_view.matching());
    return ready == parents;
  };
  // The work queue and the reconciles so far, from the manager's registry.
  auto queue_state = [&] {
    const std::string text = manager.metrics().expose();
    std::ostringstream out;
    out << "queue depth "
        << rr::e2e::sum_of(rr::e2e::samples_by_label(text, "workqueue_depth", "name", "name=\"webapp\""))
        << ", active workers "
        << rr::e2e::sum_of(rr::e2e::samples_by_label(text, "controller_runtime_active_workers", "controller"))
        << ", reconciles "
        << rr::e2e::sum_of(rr::e2e::samples_by_label(text, "controller_runtime_reconcile_total", "result"));
    return out.str();
  };
  const bool all_ready = rr::e2e::poll_until(count_ready, params.converge_timeout, 500ms, [&] {
    std::cout << "soak: " << ready << "/" << parents << " Ready after "
              << Seconds(std::chrono::steady_clock::now() - began).count() << " s; " << queue_state() << "; "
              << rr::e2e::describe(server.fault_counters()) << "\n"
              << std::flush;
  });
  const double converged_after = Seconds(std::chrono::steady_clock::now() - began).count();
  std::cout << "soak: " << ready << "/" << parents << " Ready after " << converged_after << " s; " << queue_state()
            << "\n"
            << std::flush;
  if (!all_ready) {
    for (const std::string& name : app_view.not_matching(5)) {
      const rr::ObjectKey key{name.substr(0, name.find('/')), name.substr(name.find('/') + 1)};
      const Json app = cluster->get(web_apps, key);
      auto exists = [&](const rr::KindInfo& kind) {
        try {
          cluster->get(kind, key);
          return "exists";
        } catch (const rr::ApiError&) {
          return "missing";
        }
      };
      std::cout << "  not converged: " << key.str() << " generation " << app["metadata"].value("generation", 0)
                << ", Deployment " << exists(deployments) << ", Service " << exists(services) << ", finalizers "
                << app["metadata"].value("finalizers", Json::array()).dump() << ", status "
                << app.value("status", Json::object()).dump() << "\n";
    }
    std::cout << "operator log:\n" << logs.summary();
  }
  REQUIRE(all_ready);
  REQUIRE_FALSE(running.finished());
  const rr::FaultCounters faults_converging = server.fault_counters();

  // ---- check, faults off: exactly one Deployment and one Service per WebApp, nothing stuck.
  server.set_faults(rr::FaultOptions{});
  // The queue drains: no WebApp is waiting to be retried (a stuck one would come back and back).
  const bool queue_idle = rr::e2e::poll_until(
      [&] {
        const std::string text = manager.metrics().expose();
        return rr::e2e::sum_of(rr::e2e::samples_by_label(text, "workqueue_depth", "name", "name=\"webapp\"")) == 0 &&
               rr::e2e::sum_of(rr::e2e::samples_by_label(text, "controller_runtime_active_workers", "controller")) == 0;
      },
      60s, 100ms);
  CHECK(queue_idle);
  const std::vector<Json> apps = items(user.list(web_apps, {}));
  const std::vector<Json> deployment_list = items(user.list(deployments, {}));
  const std::vector<Json> service_list = items(user.list(services, {}));
  CHECK(static_cast<long>(apps.size()) == parents);
  long stuck = 0;
  long dns_wrong = 0;
  for (const Json& app : apps) {
    if (!converged(app)) ++stuck;
    const std::string ns = app["metadata"]["namespace"].get<std::string>();
    const std::string name = app["metadata"]["name"].get<std::string>();
    if (dns->lookup(hostname_of(name, ns)) != name + "." + ns + ".svc.cluster.local") ++dns_wrong;
  }
  CHECK(stuck == 0);
  CHECK(dns_wrong == 0);
  const auto deployment_problems = child_problems("Deployment", apps, deployment_list);
  const auto service_problems = child_problems("Service", apps, service_list);
  print_problems("Deployments", deployment_problems);
  print_problems("Services", service_problems);
  CHECK(deployment_problems.empty());
  CHECK(service_problems.empty());
  std::cout << "soak: checked " << apps.size() << " WebApps, " << deployment_list.size() << " Deployments, "
            << service_list.size() << " Services: " << stuck << " stuck, "
            << deployment_problems.size() + service_problems.size() << " child problems, " << dns_wrong
            << " DNS records wrong\n"
            << std::flush;

  // ---- delete, faults on again: the finalizer removes each DNS record, the children are collected.
  server.set_faults(soak_faults());
  const auto delete_began = std::chrono::steady_clock::now();
  int delete_retries = 0;
  for (const Json& app : apps) {
    const rr::ObjectKey key{app["metadata"]["namespace"].get<std::string>(), app["metadata"]["name"].get<std::string>()};
    delete_retries += rr::e2e::with_retries([&] { user.remove(web_apps, key); }, 50, not_found);
  }
  std::size_t left_apps = 0;
  std::size_t left_children = 0;
  const bool all_gone = rr::e2e::poll_until(
      [&] {
        left_apps = app_view.size();
        left_children = deployment_view.size() + service_view.size();
        return left_apps == 0 && left_children == 0;
      },
      params.converge_timeout, 500ms,
      [&] { std::cout << "soak: deleting, " << left_apps << " WebApps and " << left_children << " children left\n" << std::flush; });
  const double deleted_after = Seconds(std::chrono::steady_clock::now() - delete_began).count();
  std::cout << "soak: all deleted and collected in " << deleted_after << " s (" << delete_retries << " retries); "
            << left_apps << " WebApps, " << left_children << " children left\n"
            << std::flush;
  if (!all_gone) std::cout << "operator log:\n" << logs.summary();
  CHECK(all_gone);
  // The generated role suffices: not one request of the operator was refused.
  CHECK(logs.forbidden() == 0);
  long dns_left = 0;
  for (const Json& app : apps) {
    dns_left += dns->lookup(hostname_of(app["metadata"]["name"].get<std::string>(),
                                        app["metadata"]["namespace"].get<std::string>()))
                    ? 1
                    : 0;
  }
  CHECK(dns_left == 0);  // every WebApp went through its finalizer

  // ---- stop: run() returns 0 within the grace period.
  const std::string metrics_text = manager.metrics().expose();
  const auto stop_began = std::chrono::steady_clock::now();
  const std::optional<int> code = running.stop(options.graceful_shutdown_timeout + 5s);
  const double stopped_after = Seconds(std::chrono::steady_clock::now() - stop_began).count();
  REQUIRE(code.has_value());
  CHECK(*code == 0);
  CHECK(stopped_after < std::chrono::duration<double>(options.graceful_shutdown_timeout).count());

  // ---- figures
  const auto reconciles = rr::e2e::samples_by_label(metrics_text, "controller_runtime_reconcile_total", "result",
                                                    "controller=\"webapp\"");
  const auto panics = rr::e2e::samples_by_label(metrics_text, "controller_runtime_reconcile_panics_total", "controller");
  const auto retries = rr::e2e::samples_by_label(metrics_text, "workqueue_retries_total", "name");
  std::cout << "soak figures (" << parents << " parents):\n"
            << "  created in " << created_after << " s, all Ready " << converged_after << " s after the first create\n"
            << "  deleted and collected in " << deleted_after << " s; manager stopped in " << stopped_after
            << " s with exit code " << *code << "\n"
            << "  reconciles " << rr::e2e::sum_of(reconciles) << " (";
  for (const auto& [result, count] : reconciles) std::cout << result << " " << count << ", ";
  std::cout << "panics " << rr::e2e::sum_of(panics) << ", work-queue retries " << rr::e2e::sum_of(retries) << ")\n"
            << "  reconciles per parent " << rr::e2e::sum_of(reconciles) / static_cast<double>(parents) << "\n"
            << "  faults until converged: " << rr::e2e::describe(faults_converging) << "\n"
            << "  faults in all: " << rr::e2e::describe(server.fault_counters()) << "\n"
            << "  Deployment status updates by the workload simulator: " << workloads.updates() << "\n"
            << "  operator log: " << logs.errors() << " errors; most frequent lines:\n"
            << logs.summary(8) << std::flush;
  CHECK(rr::e2e::sum_of(reconciles) >= static_cast<double>(parents));
  if (soak_faults().fail_rate > 0) CHECK(server.fault_counters().total_failures() > 0);  // they were really there
}
