// Live operation over HTTP on loopback (docs/benchmarks.md, "Live operation"):
//
//   e2e      an in-process rr::ApiServer + rr::WorkloadSimulator, and the WebApp operator wired as
//            rr::run_operator wires it (Manager + InformerCache + Controller over one HttpClient,
//            N workers). A second HttpClient creates K WebApps; a third watches them and notes
//            when each one's Ready condition turns True. Per-object create→Ready latency, WebApps
//            Ready per second, reconciles per second (from the manager's metrics registry). The
//            WebApps are in one namespace, or spread over --namespaces N (each reconcile lists the
//            children of its namespace).
//   memory   an rr::Informer over HttpClient caching N ConfigMaps, then N Deployments, served by a
//            child process (so that the server's own copy is not in this process's RSS): RSS
//            (/proc/self/statm, after malloc_trim) and heap in use (mallinfo2) before and after
//            the sync, per object, beside the average serialized JSON size of an object and the
//            heap a plain parsed list of the same objects takes; the same for a metadata-only
//            informer (InformerOptions::metadata_only), and the JSON of the list answer per object,
//            whole and as a PartialObjectMetadataList.
//   requests raw HttpClient request rate: creates/s and GETs/s with 1 and 2 threads sharing one
//            client, against an in-process server.
//   auth     the cost of TLS and of RBAC per request: GETs of one ConfigMap over plain HTTP
//            (the baseline), over HTTPS with a client certificate, with RBAC as system:masters,
//            and with RBAC as a ServiceAccount whose RoleBinding sits among other roles and
//            bindings, one server after the other in the same run.
//
// The client-side rate limiter is off (RestConfig::qps = 0) everywhere: with run_operator's
// defaults (--kube-api-qps 20, --kube-api-burst 30) every figure here would be capped near 20
// requests/s.
//
// Usage: bench_live [--webapps K] [--workers N] [--namespaces N] [--objects N] [--requests N]
//                   [--only e2e|memory|requests|auth]
//        bench_live --serve-objects N KIND   (internal: the memory section's server process)
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_objects.hpp"
#include "bench_util.hpp"
#include "rr/apiserver/api_server.hpp"
#include "rr/apiserver/dev_certificates.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/controller/informer.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/manager/json_log.hpp"
#include "rr/manager/manager.hpp"
#include "rr/manager/manager_options.hpp"
#include "rr/manager/operator_main.hpp"
#include "rr/rest_config/kubeconfig.hpp"
#include "webapp_hooks.hpp"

extern char** environ;

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

rr::RestConfig unthrottled(const std::string& url) {
  rr::RestConfig config;
  config.host = url;
  config.qps = 0;  // see the header comment
  return config;
}

// Resident set size of this process, in bytes.
double rss_bytes() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

// Bytes malloc has handed out and not got back, over every arena (live data, without the
// fragmentation and free memory that RSS also counts).
double heap_in_use() {
  const struct mallinfo2 info = mallinfo2();
  return static_cast<double>(info.uordblks + info.hblkhd);
}

double percentile(std::vector<double> sorted, double p) {
  if (sorted.empty()) return 0;
  std::sort(sorted.begin(), sorted.end());
  const auto index = static_cast<std::size_t>(p * static_cast<double>(sorted.size() - 1) + 0.5);
  return sorted[std::min(index, sorted.size() - 1)];
}

// Sum of a counter family's samples in Prometheus text, by the value of one label.
std::map<std::string, double> counter_by_label(const std::string& text, const std::string& family,
                                               const std::string& label) {
  std::map<std::string, double> out;
  std::size_t at = 0;
  while ((at = text.find(family + "{", at)) != std::string::npos) {
    const std::size_t end = text.find('\n', at);
    const std::string line = text.substr(at, end - at);
    at = end;
    const std::size_t l = line.find(label + "=\"");
    const std::size_t space = line.rfind(' ');
    if (l == std::string::npos || space == std::string::npos) continue;
    const std::size_t v = l + label.size() + 2;
    out[line.substr(v, line.find('"', v) - v)] += std::strtod(line.c_str() + space + 1, nullptr);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// e2e

// WebApp i, in namespace "default" or, with several namespaces, "ns-<i mod namespaces>".
rr::Json webapp_object(int i, int namespaces) {
  const std::string name = "app-" + std::to_string(i);
  const std::string ns = namespaces > 1 ? "ns-" + std::to_string(i % namespaces) : "default";
  return rr::Json{{"apiVersion", "web.example.rrgen.dev/v1"},
                  {"kind", "WebApp"},
                  {"metadata", {{"namespace", ns}, {"name", name}}},
                  {"spec", {{"image", "registry.example/app:1.0"}, {"replicas", 2}, {"hostname", name + ".example.com"}}}};
}

bool ready(const rr::Json& app) {
  const auto status = app.find("status");
  if (status == app.end() || !status->contains("conditions")) return false;
  for (const rr::Json& c : (*status)["conditions"]) {
    if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
  }
  return false;
}

// Notes the first time each WebApp is seen Ready on a watch of its own client.
class ReadyWatcher {
 public:
  ReadyWatcher(const std::string& url, int expected) : client_(unthrottled(url)), expected_(expected) {
    const rr::KindInfo kind = client_.kind_info({"web.example.rrgen.dev", "v1", "WebApp"});
    watch_ = client_.watch(kind, {});  // every namespace
    thread_ = std::thread([this] { run(); });
  }
  ~ReadyWatcher() {
    watch_->stop();
    thread_.join();
  }
  bool wait_all(Clock::duration timeout) {
    std::unique_lock lock(mutex_);
    return all_.wait_for(lock, timeout, [&] { return static_cast<int>(ready_at_.size()) >= expected_; });
  }
  std::map<std::string, Clock::time_point> ready_at() {
    std::lock_guard lock(mutex_);
    return ready_at_;
  }

 private:
  void run() {
    while (!watch_->stopped()) {
      auto event = watch_->next(200ms);
      if (!event || event->type == rr::WatchEventType::Error || !ready(event->object)) continue;
      const auto now = Clock::now();
      std::lock_guard lock(mutex_);
      ready_at_.try_emplace(event->object["metadata"]["name"].get<std::string>(), now);
      if (static_cast<int>(ready_at_.size()) >= expected_) all_.notify_all();
    }
  }
  rr::HttpClient client_;
  int expected_;
  std::unique_ptr<rr::Watch> watch_;
  std::mutex mutex_;
  std::condition_variable all_;
  std::map<std::string, Clock::time_point> ready_at_;
  std::thread thread_;
};

void bench_e2e(int webapps, int workers, int namespaces) {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<webapp::WebApp>();  // as run_operator's register_local_kinds
  rr::ApiServer server(cluster);
  server.start();
  rr::WorkloadSimulator workloads(cluster);
  const std::string url = server.url();

  // The operator, as run_operator builds it (without flags, signals or probes).
  rr::RestConfig operator_config = unthrottled(url);
  operator_config.user_agent = "webapp-operator";
  auto api = std::make_shared<rr::HttpClient>(operator_config);
  rr::ManagerOptions options;
  options.metrics_bind_address = "0";
  options.health_probe_bind_address = "0";
  options.max_concurrent_reconciles = workers;
  // Wait for the in-flight reconciles however long they take: after an overrun grace period the
  // manager returns with its controllers still running, and they use its metrics registry.
  options.graceful_shutdown_timeout = std::chrono::nanoseconds(-1);
  rr::Manager manager(options, api, rr::make_json_logger(stderr, rr::LogLevel::Error));
  auto cache = std::make_shared<rr::InformerCache>(api);
  manager.add(cache);
  rr::OperatorContext context{manager, api, cache, manager.options()};
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  auto controller = context.add_controller(
      "webapp", [hooks](const rr::Config& config) { return webapp::WebAppReconciler(config, hooks); });
  std::jthread operator_thread([&](std::stop_token stop) { manager.run(stop); });
  const auto ready_deadline = Clock::now() + 30s;
  while (!controller->ready() && Clock::now() < ready_deadline) std::this_thread::sleep_for(10ms);
  if (!controller->ready()) throw std::runtime_error("the controller did not start within 30 s");

  ReadyWatcher watcher(url, webapps);
  rr::HttpClient creator(unthrottled(url));
  const rr::KindInfo kind = creator.kind_info({"web.example.rrgen.dev", "v1", "WebApp"});
  const std::string rv_before = cluster->resource_version();
  std::vector<Clock::time_point> created_at(static_cast<std::size_t>(webapps));
  const bench::Stopwatch sw;
  const auto start = Clock::now();
  for (int i = 0; i < webapps; ++i) {
    created_at[static_cast<std::size_t>(i)] = Clock::now();
    creator.create(kind, webapp_object(i, namespaces));
  }
  const auto creates_done = Clock::now();
  const bool all_ready = watcher.wait_all(600s);
  const auto end = Clock::now();
  // Then until the queue is quiet: the status updates that made the WebApps Ready come back as
  // events and are reconciled once more (with nothing to do).
  auto reconciles_so_far = [&] {
    double n = 0;
    for (const auto& [result, count] :
         counter_by_label(manager.metrics().expose(), "controller_runtime_reconcile_total", "result")) {
      n += count;
    }
    return n;
  };
  auto quiet_since = Clock::now();
  for (double last = reconciles_so_far(); Clock::now() - quiet_since < 1s && Clock::now() - end < 600s;) {
    std::this_thread::sleep_for(100ms);
    if (const double now = reconciles_so_far(); now != last) {
      last = now;
      quiet_since = Clock::now();
    }
  }
  const auto settled = quiet_since;
  const bench::Times t = sw.elapsed();
  const std::string metrics = manager.metrics().expose();

  std::vector<double> latencies;
  const auto ready_at = watcher.ready_at();
  for (int i = 0; i < webapps; ++i) {
    const auto it = ready_at.find("app-" + std::to_string(i));
    if (it != ready_at.end()) latencies.push_back(ms(it->second - created_at[static_cast<std::size_t>(i)]));
  }
  const auto results = counter_by_label(metrics, "controller_runtime_reconcile_total", "result");
  double reconciles = 0;
  for (const auto& [result, n] : results) reconciles += n;
  const double window = std::chrono::duration<double>(end - start).count();
  const double settle_window = std::chrono::duration<double>(settled - start).count();
  const double writes = std::stod(cluster->resource_version()) - std::stod(rv_before);

  std::printf("e2e: %d WebApps in %d namespace%s, %d workers, qps limit off%s\n", webapps, namespaces,
              namespaces == 1 ? "" : "s", workers, all_ready ? "" : "  ** NOT ALL READY within 600 s **");
  std::printf("  creates (1 client, sequential)  %8.2f s   %8.1f creates/s\n",
              std::chrono::duration<double>(creates_done - start).count(),
              webapps / std::chrono::duration<double>(creates_done - start).count());
  std::printf("  all Ready after                 %8.2f s   %8.1f WebApps Ready/s\n", window,
              static_cast<double>(latencies.size()) / window);
  std::printf("  create->Ready latency ms        p50 %.1f  p90 %.1f  p99 %.1f  max %.1f  (%zu of %d Ready)\n",
              percentile(latencies, 0.5), percentile(latencies, 0.9), percentile(latencies, 0.99),
              percentile(latencies, 1.0), latencies.size(), webapps);
  std::printf("  queue quiet after               %8.2f s\n", settle_window);
  std::printf("  reconciles (until quiet)        %8.0f       %8.1f reconciles/s  (%.2f per WebApp;", reconciles,
              reconciles / settle_window, reconciles / webapps);
  for (const auto& [result, n] : results) std::printf(" %s %.0f", result.c_str(), n);
  std::printf(")\n");
  std::printf("  writes (resourceVersions)       %8.0f       %8.2f per WebApp\n", writes, writes / webapps);
  std::printf("  process CPU (until quiet)       %8.2f s   %8.2f ms per WebApp (server, simulator, operator, clients)\n",
              t.cpu, 1000.0 * t.cpu / webapps);
  const auto stopping = Clock::now();
  operator_thread.request_stop();
  operator_thread.join();
  std::printf("  manager shutdown                %8.2f s\n", std::chrono::duration<double>(Clock::now() - stopping).count());
}

// ---------------------------------------------------------------------------------------------
// memory

// The child: a cluster holding N objects of one kind, served until killed. Prints its URL.
int serve_objects(int n, const std::string& kind_name) {
  auto cluster = std::make_shared<rr::Cluster>();
  rr::ApiServer server(cluster);
  const rr::GroupVersionKind gvk = kind_name == "Deployment" ? rr::GroupVersionKind{"apps", "v1", "Deployment"}
                                                             : rr::GroupVersionKind{"", "v1", "ConfigMap"};
  const rr::KindInfo kind = *cluster->find_kind(gvk);
  for (int i = 0; i < n; ++i) {
    cluster->create(kind, kind_name == "Deployment" ? bench::realistic_deployment(i) : bench::realistic_config_map(i));
  }
  server.start();
  std::printf("%s\n", server.url().c_str());
  std::fflush(stdout);
  pause();  // until SIGTERM
  return 0;
}

struct Child {
  pid_t pid = -1;
  std::string url;
};

Child spawn_server(int n, const std::string& kind) {
  int out[2];
  if (pipe(out) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, out[0]);
  const std::string count = std::to_string(n);
  std::vector<char*> argv{const_cast<char*>("/proc/self/exe"), const_cast<char*>("--serve-objects"),
                          const_cast<char*>(count.c_str()), const_cast<char*>(kind.c_str()), nullptr};
  Child child;
  if (posix_spawn(&child.pid, "/proc/self/exe", &actions, nullptr, argv.data(), environ) != 0) {
    throw std::runtime_error("posix_spawn failed");
  }
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  char c = 0;
  while (read(out[0], &c, 1) == 1 && c != '\n') child.url.push_back(c);
  close(out[0]);
  if (child.url.empty()) throw std::runtime_error("the server process printed no URL");
  return child;
}

struct InformerMemory {
  std::size_t stored = 0;
  double json = 0;  // JSON bytes per stored object
  double sync_s = 0;
  double rss = 0;   // per object
  double heap = 0;  // per object
};

// An Informer (whole objects, or metadata-only) synced from the server: what it adds to the process.
InformerMemory informer_memory(const std::shared_ptr<rr::HttpClient>& client, const rr::KindInfo& kind,
                               bool metadata_only) {
  malloc_trim(0);
  const double before = rss_bytes();
  const double heap_before = heap_in_use();
  const auto started = Clock::now();
  rr::InformerOptions options;
  options.metadata_only = metadata_only;
  auto informer = std::make_unique<rr::Informer>(client, kind, options);
  std::jthread run([&](std::stop_token stop) { informer->run(stop); });
  if (!informer->wait_for_sync(run.get_stop_token(), 300s)) throw std::runtime_error("no sync within 300 s");
  InformerMemory m;
  m.sync_s = std::chrono::duration<double>(Clock::now() - started).count();
  // has_synced() turns true before the informer's thread has freed the list it synced from:
  // wait until the heap stops shrinking.
  for (double last = heap_in_use();;) {
    std::this_thread::sleep_for(300ms);
    const double now = heap_in_use();
    if (now >= last) break;
    last = now;
  }
  malloc_trim(0);
  const double after = rss_bytes();
  const double heap_after = heap_in_use();
  double json_bytes = 0;
  for (const auto& object : informer->store().list()) {
    json_bytes += static_cast<double>(object->dump().size());
    ++m.stored;
  }
  run.request_stop();
  run.join();
  const double n_objects = static_cast<double>(m.stored);
  m.json = json_bytes / n_objects;
  m.rss = (after - before) / n_objects;
  m.heap = (heap_after - heap_before) / n_objects;
  return m;
}

void bench_memory_of(int n, const std::string& kind_name) {
  const Child child = spawn_server(n, kind_name);
  {
    auto client = std::make_shared<rr::HttpClient>(unthrottled(child.url));
    const rr::GroupVersionKind gvk = kind_name == "Deployment" ? rr::GroupVersionKind{"apps", "v1", "Deployment"}
                                                               : rr::GroupVersionKind{"", "v1", "ConfigMap"};
    const rr::KindInfo kind = client->kind_info(gvk);  // warms libcurl and the connection pool
    // The floor: the same objects as one parsed list (nlohmann::json DOM), nothing else; and the
    // JSON of the list answers, whole and metadata-only (what crosses the network per object).
    malloc_trim(0);
    double list_per_object = 0, list_bytes = 0, metadata_list_bytes = 0;
    {
      const double before_list = heap_in_use();
      const rr::Json list = client->list(kind, {});
      const double items = static_cast<double>(list["items"].size());
      list_per_object = (heap_in_use() - before_list) / items;
      list_bytes = static_cast<double>(list.dump().size()) / items;
    }
    {
      rr::ListOptions metadata;
      metadata.metadata_only = true;
      const rr::Json list = client->list(kind, metadata);
      if (list.value("kind", "") != "PartialObjectMetadataList")
        throw std::runtime_error("no PartialObjectMetadataList");
      metadata_list_bytes = static_cast<double>(list.dump().size()) / static_cast<double>(list["items"].size());
    }
    const InformerMemory whole = informer_memory(client, kind, false);
    const InformerMemory partial = informer_memory(client, kind, true);
    const double json = whole.json;
    std::printf("  %-10s %6zu objects, JSON %5.0f B/object; sync %5.2f s (metadata-only %5.2f s)\n", kind_name.c_str(),
                whole.stored, json, whole.sync_s, partial.sync_s);
    std::printf("    informer: RSS +%6.1f MB = %6.0f B/object (%4.1fx JSON); heap in use %6.0f B/object (%4.1fx)\n",
                whole.rss * static_cast<double>(whole.stored) / bench::kMB, whole.rss, whole.rss / json, whole.heap,
                whole.heap / json);
    std::printf("    metadata-only informer: RSS %6.0f B/object; heap in use %6.0f B/object (%4.1fx the whole JSON);"
                " kept JSON %5.0f B/object\n",
                partial.rss, partial.heap, partial.heap / json, partial.json);
    std::printf("    list answer JSON per object: whole %6.0f B, PartialObjectMetadataList %5.0f B (%4.1f%%)\n",
                list_bytes, metadata_list_bytes, 100 * metadata_list_bytes / list_bytes);
    std::printf("    the same objects as one parsed list (nlohmann::json): heap in use %6.0f B/object (%4.1fx)\n",
                list_per_object, list_per_object / json);
  }
  kill(child.pid, SIGTERM);
  waitpid(child.pid, nullptr, 0);
}

void bench_memory(int n) {
  std::printf("memory: an Informer over HttpClient (server in a child process), RSS after malloc_trim\n");
  bench_memory_of(n, "ConfigMap");
  bench_memory_of(n, "Deployment");
}

// ---------------------------------------------------------------------------------------------
// requests

void bench_requests(int requests) {
  auto cluster = std::make_shared<rr::Cluster>();
  rr::ApiServer server(cluster);
  server.start();
  rr::HttpClient client(unthrottled(server.url()));
  const rr::KindInfo cm = client.kind_info({"", "v1", "ConfigMap"});
  std::printf("requests: one HttpClient shared by the threads, in-process server, qps limit off\n");
  for (int threads : {1, 2}) {
    const std::string prefix = "t" + std::to_string(threads) + "-";
    auto run = [&](const char* what, auto&& one) {
      std::atomic<int> next{0};
      const bench::Stopwatch sw;
      std::vector<std::thread> pool;
      for (int t = 0; t < threads; ++t) {
        pool.emplace_back([&] {
          for (int i; (i = next++) < requests;) one(i);
        });
      }
      for (auto& th : pool) th.join();
      const bench::Times t = sw.elapsed();
      std::printf("  %d thread%s  %-7s %6d requests  wall %6.2f s  %8.1f requests/s  CPU %6.1f us/request\n", threads,
                  threads == 1 ? " " : "s", what, requests, t.wall, requests / t.wall, 1e6 * t.cpu / requests);
    };
    run("creates", [&](int i) {
      client.create(cm, rr::Json{{"apiVersion", "v1"},
                                 {"kind", "ConfigMap"},
                                 {"metadata", {{"namespace", "default"}, {"name", prefix + std::to_string(i)}}},
                                 {"data", {{"k", "v"}}}});
    });
    run("GETs", [&](int i) { client.get(cm, {"default", prefix + std::to_string(i)}); });
  }
}

// ---------------------------------------------------------------------------------------------
// auth

rr::Json rbac_object(const std::string& kind, const std::string& name, const std::string& ns, rr::Json body) {
  rr::Json object = {{"apiVersion", "rbac.authorization.k8s.io/v1"}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (!ns.empty()) object["metadata"]["namespace"] = ns;
  object.update(body);
  return object;
}

// `others` Roles and RoleBindings of other subjects in the namespace, and as many ClusterRoles and
// ClusterRoleBindings, which every decision reads; then the account's own Role and binding.
void grant_account(rr::Cluster& cluster, int others) {
  const auto kind = [&](const char* k) { return *cluster.find_kind({"rbac.authorization.k8s.io", "v1", k}); };
  const rr::Json get_configmaps = rr::Json::array(
      {{{"apiGroups", {""}}, {"resources", {"configmaps"}}, {"verbs", {"get", "list"}}}});
  const auto ref = [](const char* k, const std::string& name) {
    return rr::Json{{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", k}, {"name", name}};
  };
  for (int i = 0; i < others; ++i) {
    const std::string n = "other-" + std::to_string(i);
    const rr::Json subject = {{{"kind", "User"}, {"name", n}, {"apiGroup", "rbac.authorization.k8s.io"}}};
    cluster.create(kind("Role"), rbac_object("Role", n, "bench", {{"rules", get_configmaps}}));
    cluster.create(kind("RoleBinding"),
                   rbac_object("RoleBinding", n, "bench", {{"roleRef", ref("Role", n)}, {"subjects", subject}}));
    cluster.create(kind("ClusterRole"), rbac_object("ClusterRole", n, "", {{"rules", get_configmaps}}));
    cluster.create(
        kind("ClusterRoleBinding"),
        rbac_object("ClusterRoleBinding", n, "", {{"roleRef", ref("ClusterRole", n)}, {"subjects", subject}}));
  }
  cluster.create(kind("Role"), rbac_object("Role", "app", "bench", {{"rules", get_configmaps}}));
  cluster.create(kind("RoleBinding"),
                 rbac_object("RoleBinding", "app", "bench",
                             {{"roleRef", ref("Role", "app")},
                              {"subjects", {{{"kind", "ServiceAccount"}, {"name", "app"}, {"namespace", "bench"}}}}}));
}

void bench_auth(int requests) {
  std::printf("auth: GETs of one ConfigMap, one HttpClient and thread, in-process server; CPU is client + server\n");
  const rr::DevCertificates certs = rr::make_dev_certificates();
  struct Setup {
    const char* name;
    bool tls;
    rr::AuthorizationMode mode;
    bool as_account;
  };
  const Setup setups[] = {
      {"HTTP, no authentication, AlwaysAllow (baseline)", false, rr::AuthorizationMode::AlwaysAllow, false},
      {"HTTPS, client certificate, AlwaysAllow", true, rr::AuthorizationMode::AlwaysAllow, false},
      {"HTTPS, client certificate, RBAC as system:masters", true, rr::AuthorizationMode::RBAC, false},
      {"HTTPS, token, RBAC as a ServiceAccount (100+100 other bindings)", true, rr::AuthorizationMode::RBAC, true},
  };
  double baseline = 0;
  for (const Setup& setup : setups) {
    auto cluster = std::make_shared<rr::Cluster>();
    rr::ApiServerOptions options;
    options.authorization = setup.mode;
    if (setup.tls) {
      options.tls = rr::tls_options(certs);
      options.kubeconfig_user = rr::kubeconfig_user(certs);
      options.static_tokens = {
          {"app-token", "system:serviceaccount:bench:app", {"system:serviceaccounts", "system:serviceaccounts:bench"}}};
    }
    rr::ApiServer server(cluster, options);
    server.start();
    const auto ns_kind = *cluster->find_kind({"", "v1", "Namespace"});
    cluster->create(ns_kind, rr::Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", "bench"}}}});
    const auto cm_kind = *cluster->find_kind({"", "v1", "ConfigMap"});
    cluster->create(cm_kind, rr::Json{{"apiVersion", "v1"},
                                      {"kind", "ConfigMap"},
                                      {"metadata", {{"namespace", "bench"}, {"name", "target"}}},
                                      {"data", {{"k", "v"}}}});
    if (setup.as_account) grant_account(*cluster, 100);
    rr::KubeconfigUser user = options.kubeconfig_user;
    if (setup.as_account) {
      user = rr::KubeconfigUser{};
      user.name = "app";
      user.token = "app-token";
    }
    rr::RestConfig config = rr::load_kubeconfig_text(server.kubeconfig_yaml(user)).config;
    config.qps = 0;
    rr::HttpClient client(config);
    const rr::KindInfo cm = client.kind_info({"", "v1", "ConfigMap"});
    for (int i = 0; i < 50; ++i) client.get(cm, {"bench", "target"});  // connection and discovery warm
    const bench::Stopwatch sw;
    for (int i = 0; i < requests; ++i) client.get(cm, {"bench", "target"});
    const bench::Times t = sw.elapsed();
    const double us = 1e6 * t.wall / requests;
    if (baseline == 0) baseline = us;
    std::printf("  %-66s %7.1f us/request wall (%4.2fx)  CPU %6.1f us/request\n", setup.name, us, us / baseline,
                1e6 * t.cpu / requests);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--serve-objects") == 0) return serve_objects(std::atoi(argv[2]), argv[3]);
  int webapps = 500, workers = 2, namespaces = 1, objects = 10000, requests = 1000;
  std::string only;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) throw std::invalid_argument(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--webapps") {
      webapps = std::atoi(value());
    } else if (arg == "--workers") {
      workers = std::atoi(value());
    } else if (arg == "--namespaces") {
      namespaces = std::max(1, std::atoi(value()));
    } else if (arg == "--objects") {
      objects = std::atoi(value());
    } else if (arg == "--requests") {
      requests = std::atoi(value());
    } else if (arg == "--only") {
      only = value();
    } else {
      std::fprintf(stderr,
                   "usage: %s [--webapps K] [--workers N] [--namespaces N] [--objects N] [--requests N] [--only "
                   "e2e|memory|requests|auth]\n",
                   argv[0]);
      return 2;
    }
  }
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // figures appear as they are measured, even when piped
  std::printf("bench_live (%s, %s), %u hardware threads\n", RRGEN_BENCH_BUILD_TYPE, bench::compiler_name(),
              std::thread::hardware_concurrency());
  if (only.empty() || only == "requests") bench_requests(requests);
  if (only.empty() || only == "auth") bench_auth(requests);
  if (only.empty() || only == "e2e") bench_e2e(webapps, workers, namespaces);
  if (only.empty() || only == "memory") bench_memory(objects);
  return 0;
}
