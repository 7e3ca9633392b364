// bench_soak: the WebApp operator at scale over HTTP on loopback, with the operator's and the API
// server's CPU and memory measured apart (docs/benchmarks.md, "Soak at 10,000 WebApps";
// docs/scaling.md). Not a test: it prints figures and asserts nothing.
//
//   soak (default)  rrgen-cluster (--insecure-http --simulate-workloads, the WebApp CRD) is one
//            child process; the operator is another: this program in --operator mode, the sample's
//            generated WebAppReconciler wired as rr::run_operator wires it (HttpClient with the
//            rest_client_* metrics, Manager, shared InformerCache with its object-count metrics,
//            OperatorContext::add_controller), its /metrics on 127.0.0.1. This process creates
//            the namespaces (a ConfigMap each) and --webapps WebApps from 4 threads and follows
//            them with an informer of its own (one more watch on the server). Phases:
//              converge  first create -> every WebApp Ready at its generation
//              drain     until nothing is queued and nothing written for 2 s
//              steady    --steady-seconds of idle: CPU per minute of each process
//              wave      --wave-percent of the WebApps get a new image (a merge patch): until
//                        each patched one is Ready at its new generation; then a drain
//            Per phase: wall time, CPU seconds of the operator(s) and of the server (from
//            /proc/PID/stat), peak RSS (VmHWM, and wait4's ru_maxrss at the end), reconciles,
//            requests per verb (rest_client_requests_total), the peak of workqueue_depth (the
//            operator's /metrics scraped every --scrape-ms).
//            With --shards N, N operator processes each cache and reconcile only the WebApps (and
//            their children, which copy the WebApp's labels) labelled rrgen.dev/shard=<i> (label
//            selectors on the informers, docs/runtime/32), each under its own Lease
//            (<id>-shard-<i>): the simulation of docs/scaling.md.
//            --view-cache-kb KB sets the informers' decoded_cache_bytes (the views they keep).
//   --fanout  the API server's cost of watch fan-out: --webapps ConfigMaps, then for 0, 1, 2 and 4
//            watchers (threads of this process, each with its own HttpClient and watch) an update
//            of every object; the server's CPU for the wave beside the number of watchers, and
//            with 4 watchers each selecting a quarter by a shard label.
//
// The operator's client is unthrottled by default (--qps 0): run_operator's 20 qps / 30 burst
// (controller-runtime's) would make 10,000 WebApps take about an hour of rate limiting.
//
// usage: bench_soak [--webapps N] [--namespaces N] [--workers N] [--qps Q] [--shards N]
//                   [--steady-seconds S] [--wave-percent P] [--timeout-seconds S] [--keep DIR]
//                   [--view-cache-kb KB]
//        bench_soak --fanout [--webapps N]
//        bench_soak --operator KUBECONFIG PORT_FILE WORKERS QPS SHARD SHARDS VIEW_KB   (internal)
#include <curl/curl.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.hpp"
#include "rr/client/watch.hpp"
#include "rr/controller/informer.hpp"
#include "rr/controller/informer_cache.hpp"
#include "rr/controller/informer_cache_metrics.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/http_client/http_client.hpp"
#include "rr/manager/json_log.hpp"
#include "rr/manager/manager.hpp"
#include "rr/manager/operator_main.hpp"
#include "rr/manager/rest_client_metrics.hpp"
#include "rr/rest_config/kubeconfig.hpp"
#include "webapp_hooks.hpp"

#ifndef RRGEN_SOAK_CLUSTER
#error "RRGEN_SOAK_CLUSTER (the rrgen-cluster binary) must be defined by the build"
#endif
#ifndef RRGEN_SOAK_CRD
#error "RRGEN_SOAK_CRD (samples/webapp-operator/crds/webapps.yaml) must be defined by the build"
#endif

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;
using rr::Json;

constexpr const char* shard_label = "rrgen.dev/shard";
constexpr const char* leader_election_id = "webapp.web.example.rrgen.dev";

[[noreturn]] void die(const std::string& message) {
  std::cerr << "bench_soak: " << message << "\n";
  std::exit(2);
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// FNV-1a of "namespace/name": the shard of a key, as a sharded operator would compute it.
std::uint32_t shard_of(const std::string& key, std::uint32_t shards) {
  std::uint32_t h = 2166136261U;
  for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
  return h % shards;
}

// ---------------------------------------------------------------------------------------------
// The operator process: the sample's reconciler wired as rr::run_operator wires it (see
// runtime/manager/src/operator_main.cpp), with the client's rate limit and, for a shard, label
// selectors on the informers and a Lease of its own, which run_operator has no flag for.

int run_operator_process(const std::string& kubeconfig, const std::string& port_file, int workers, float qps, int shard,
                         int shards, long view_kb) {
  rr::RestConfig rest = rr::load_kubeconfig_file(kubeconfig).config;
  rest.user_agent = "webapp-operator";
  rest.qps = qps;
  rest.burst = qps > 0 ? static_cast<int>(qps * 1.5F) : 0;
  auto api = std::make_shared<rr::HttpClient>(rest);
  rr::ManagerOptions options;
  options.metrics_bind_address = "127.0.0.1:0";
  options.metrics_secure = false;  // scraped over plain HTTP below
  options.health_probe_bind_address = "0";
  options.max_concurrent_reconciles = workers;
  options.graceful_shutdown_timeout = 10s;
  if (shards > 1) {
    options.leader_elect = true;
    options.leader_election_id = std::string(leader_election_id) + "-shard-" + std::to_string(shard);
    options.leader_election_namespace = "default";
  }
  const rr::Logger log = rr::make_json_logger(stderr, rr::LogLevel::Error);
  rr::Manager manager(options, api, log);
  api->set_metrics(rr::metrics::rest_client_metrics(manager.metrics()));
  rr::InformerCacheOptions cache_options;
  // --view-cache-kb: the decoded views each informer keeps (ObjectStore's default: 1 MiB of text).
  if (view_kb >= 0) cache_options.informer.decoded_cache_bytes = static_cast<std::size_t>(view_kb) * 1024;
  if (shards > 1) {
    const std::string selector = std::string(shard_label) + "=" + std::to_string(shard);
    for (const rr::GroupVersionKind& gvk :
         {rr::GroupVersionKind{"web.example.rrgen.dev", "v1", "WebApp"},
          rr::GroupVersionKind{"apps", "v1", "Deployment"}, rr::GroupVersionKind{"", "v1", "Service"}}) {
      cache_options.by_kind[gvk].label_selector = selector;
    }
  }
  auto cache = std::make_shared<rr::InformerCache>(api, std::move(cache_options));
  manager.add(cache);
  manager.add_metrics_collector([objects = std::make_shared<rr::metrics::InformerCacheMetrics>(
                                     manager.metrics(), cache)] { objects->collect(); });
  auto hooks = std::make_shared<webapp::WebAppHooks>();
  hooks->dns = std::make_shared<webapp::InMemoryDns>();
  rr::OperatorContext context{manager, api, cache, manager.options()};
  context.add_controller("webapp",
                         [hooks](const rr::Config& config) { return webapp::WebAppReconciler(config, hooks); });
  // The parent reads the metrics port from this file once the server listens.
  std::jthread announce([&manager, port_file](std::stop_token stop) {
    while (!stop.stop_requested() && manager.metrics_port() == 0) std::this_thread::sleep_for(20ms);
    const fs::path tmp = port_file + ".tmp";
    std::ofstream(tmp) << manager.metrics_port() << "\n";
    fs::rename(tmp, port_file);
  });
  const int code = manager.run_until_signal();
  announce.request_stop();
  api->set_metrics(nullptr);
  return code;
}

// ---------------------------------------------------------------------------------------------
// Child processes and their /proc figures.

struct ProcessFigures {
  double cpu = 0;      // user + system seconds so far
  double rss_mb = 0;   // VmRSS
  double peak_mb = 0;  // VmHWM
};

class Child {
 public:
  Child(std::string name, const std::vector<std::string>& argv, const fs::path& log) : name_(std::move(name)) {
    std::vector<std::string> owned = argv;
    std::vector<char*> args;
    for (auto& a : owned) args.push_back(a.data());
    args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) die("cannot start " + owned[0] + ": " + std::strerror(rc));
  }
  ~Child() { stop(); }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  const std::string& name() const { return name_; }
  pid_t pid() const { return pid_; }
  bool running() {
    if (pid_ <= 0) return false;
    int status = 0;
    rusage ru{};
    const pid_t r = wait4(pid_, &status, WNOHANG, &ru);
    if (r == pid_) {
      finish(ru);
      return false;
    }
    return true;
  }
  ProcessFigures sample() const {
    ProcessFigures f;
    if (pid_ <= 0) return final_;
    std::ifstream stat("/proc/" + std::to_string(pid_) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const std::size_t close = text.rfind(')');
    if (close == std::string::npos) return final_;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    std::vector<std::string> v;
    while (fields >> field) v.push_back(field);
    // After "(comm)": state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    if (v.size() > 12) {
      const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
      f.cpu = (std::stod(v[11]) + std::stod(v[12])) / tick;
    }
    std::ifstream status("/proc/" + std::to_string(pid_) + "/status");
    for (std::string line; std::getline(status, line);) {
      auto kb = [&](const char* key) { return std::stod(line.substr(std::strlen(key))) / 1024.0; };
      if (line.rfind("VmRSS:", 0) == 0) f.rss_mb = kb("VmRSS:");
      if (line.rfind("VmHWM:", 0) == 0) f.peak_mb = kb("VmHWM:");
    }
    return f;
  }
  // SIGTERM, then wait (SIGKILL after 20 s); the final figures from wait4.
  ProcessFigures stop() {
    if (pid_ <= 0) return final_;
    kill(pid_, SIGTERM);
    const auto t0 = Clock::now();
    int status = 0;
    rusage ru{};
    while (true) {
      const pid_t r = wait4(pid_, &status, WNOHANG, &ru);
      if (r == pid_ || r < 0) break;
      if (since(t0) > 20) kill(pid_, SIGKILL);
      std::this_thread::sleep_for(20ms);
    }
    finish(ru);
    return final_;
  }

 private:
  void finish(const rusage& ru) {
    final_.cpu = bench::seconds(ru.ru_utime) + bench::seconds(ru.ru_stime);
    final_.peak_mb = static_cast<double>(ru.ru_maxrss) / 1024.0;
    final_.rss_mb = 0;
    pid_ = -1;
  }
  std::string name_;
  pid_t pid_ = -1;
  ProcessFigures final_;
};

// ---------------------------------------------------------------------------------------------
// Metrics over HTTP.

std::size_t append_body(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

std::string http_get(const std::string& url) {
  CURL* curl = curl_easy_init();
  std::string body;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_cleanup(curl);
  if (rc != CURLE_OK) return {};
  return body;
}

// Samples of `family` (exactly that name, with labels) summed by the value of `label` ("" sums
// all), among those whose label set contains `filter`.
std::map<std::string, double> metric(const std::string& text, const std::string& family, const std::string& label,
                                     const std::string& filter = {}) {
  std::map<std::string, double> out;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind(family + "{", 0) != 0) continue;
    if (!filter.empty() && line.find(filter) == std::string::npos) continue;
    const std::size_t space = line.rfind(' ');
    if (space == std::string::npos) continue;
    std::string value;
    if (!label.empty()) {
      const std::size_t l = line.find(label + "=\"");
      if (l == std::string::npos) continue;
      const std::size_t v = l + label.size() + 2;
      value = line.substr(v, line.find('"', v) - v);
    }
    out[value] += std::strtod(line.c_str() + space + 1, nullptr);
  }
  return out;
}

double total(const std::map<std::string, double>& samples) {
  double sum = 0;
  for (const auto& [key, value] : samples) sum += value;
  return sum;
}

// What one scrape of every operator says, summed over the operators.
struct OperatorMetrics {
  double reconciles = 0;
  double reconcile_errors = 0;
  double depth = 0;  // workqueue_depth now
  double adds = 0;
  std::map<std::string, double> requests;  // by method
  std::map<std::string, double> cached;    // objects in the cache, by kind
  OperatorMetrics operator-(const OperatorMetrics& o) const {
    OperatorMetrics d = *this;
    d.reconciles -= o.reconciles;
    d.reconcile_errors -= o.reconcile_errors;
    d.adds -= o.adds;
    for (const auto& [method, n] : o.requests) d.requests[method] -= n;
    return d;
  }
};

OperatorMetrics scrape(const std::vector<int>& ports) {
  OperatorMetrics m;
  for (const int port : ports) {
    const std::string text = http_get("http://127.0.0.1:" + std::to_string(port) + "/metrics");
    const auto results = metric(text, "controller_runtime_reconcile_total", "result", "controller=\"webapp\"");
    m.reconciles += total(results);
    m.reconcile_errors += results.count("error") != 0 ? results.at("error") : 0;
    m.depth += total(metric(text, "workqueue_depth", "", "name=\"webapp\""));
    m.adds += total(metric(text, "workqueue_adds_total", "", "name=\"webapp\""));
    for (const auto& [method, n] : metric(text, "rest_client_requests_total", "method")) m.requests[method] += n;
    for (const auto& [kind, n] : metric(text, "rr_informer_cache_objects", "kind")) m.cached[kind] += n;
  }
  return m;
}

// ---------------------------------------------------------------------------------------------
// The users' side: objects and an informer that follows the WebApps.

rr::RestConfig unthrottled(const std::string& kubeconfig, const char* agent) {
  rr::RestConfig config = rr::load_kubeconfig_file(kubeconfig).config;
  config.qps = 0;
  config.user_agent = agent;
  return config;
}

std::string namespace_name(long i) { return "soak-" + std::to_string(i); }
std::string app_name(long i) {
  char name[32];
  std::snprintf(name, sizeof name, "app-%05ld", i);
  return name;
}

Json web_app(const std::string& ns, const std::string& name, long i, int shards) {
  Json app{{"apiVersion", "web.example.rrgen.dev/v1"},
           {"kind", "WebApp"},
           {"metadata", {{"namespace", ns}, {"name", name}}},
           {"spec",
            {{"image", "registry.example/soak:1.0"},
             {"replicas", 1 + i % 3},
             {"configMapName", "soak-config"},
             {"hostname", name + "." + ns + ".example.com"}}}};
  if (shards > 1) {
    app["metadata"]["labels"] = {
        {shard_label, std::to_string(shard_of(ns + "/" + name, static_cast<std::uint32_t>(shards)))}};
  }
  return app;
}

bool condition_true(const Json& object, const char* type) {
  const auto status = object.find("status");
  if (status == object.end() || !status->contains("conditions")) return false;
  for (const Json& c : (*status)["conditions"]) {
    if (c.value("type", "") == type) return c.value("status", "") == "True";
  }
  return false;
}

// Every WebApp's generation, observedGeneration and Ready, from an informer over HTTP.
class AppObserver {
 public:
  struct State {
    std::int64_t generation = 0, observed = -1;
    bool ready = false;
    bool converged() const { return ready && observed == generation; }
  };
  explicit AppObserver(const std::string& kubeconfig) {
    auto client = std::make_shared<rr::HttpClient>(unthrottled(kubeconfig, "soak-observer"));
    const rr::KindInfo kind = client->kind_info({"web.example.rrgen.dev", "v1", "WebApp"});
    rr::InformerOptions options;
    options.decoded_cache_bytes = 0;
    informer_ = std::make_shared<rr::Informer>(client, kind, options);
    informer_->add_handlers({
        .on_add = [this](const Json& o) { put(o); },
        .on_update = [this](const Json&, const Json& o) { put(o); },
        .on_delete = {},
    });
    thread_ = std::jthread([informer = informer_](std::stop_token stop) { informer->run(stop); });
    if (!informer_->wait_for_sync(thread_.get_stop_token(), 60s)) die("the WebApp observer did not sync");
  }
  ~AppObserver() {
    thread_.request_stop();
    thread_.join();
  }
  AppObserver(const AppObserver&) = delete;
  AppObserver& operator=(const AppObserver&) = delete;
  long converged() const {
    const std::lock_guard lock(mutex_);
    return converged_;
  }
  // How many of `targets` (key -> generation) are Ready at that generation or a later one.
  long reached(const std::map<std::string, std::int64_t>& targets) const {
    const std::lock_guard lock(mutex_);
    long n = 0;
    for (const auto& [key, generation] : targets) {
      const auto it = states_.find(key);
      if (it != states_.end() && it->second.ready && it->second.observed >= generation) ++n;
    }
    return n;
  }

 private:
  void put(const Json& o) {
    const Json& meta = o["metadata"];
    State s;
    s.generation = meta.value("generation", std::int64_t{0});
    s.observed = o.value("/status/observedGeneration"_json_pointer, std::int64_t{-1});
    s.ready = condition_true(o, "Ready");
    const std::string key = meta.value("namespace", "") + "/" + meta.value("name", "");
    const std::lock_guard lock(mutex_);
    State& old = states_[key];
    converged_ += (s.converged() ? 1 : 0) - (old.converged() ? 1 : 0);
    old = s;
  }
  mutable std::mutex mutex_;
  std::map<std::string, State> states_;
  long converged_ = 0;
  std::shared_ptr<rr::Informer> informer_;
  std::jthread thread_;
};

// Runs `work(i)` for i in [0, n) on `threads` threads.
void parallel_for(long n, int threads, const std::function<void(long)>& work) {
  std::vector<std::jthread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (long i = t; i < n; i += threads) work(i);
    });
  }
}

// Retries a write the server refused with a conflict or a transient error.
template <typename F>
void with_retries(F&& call) {
  for (int attempt = 0;; ++attempt) {
    try {
      call();
      return;
    } catch (const rr::ApiError& e) {
      if (rr::is_already_exists(e.status()) || attempt >= 20) {
        if (!rr::is_already_exists(e.status())) throw;
        return;
      }
      std::this_thread::sleep_for(100ms);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The cluster process.

struct Cluster {
  fs::path dir;
  std::unique_ptr<Child> process;
  std::string kubeconfig;
};

Cluster start_cluster(const fs::path& dir, bool with_crd) {
  Cluster c;
  c.dir = dir;
  c.kubeconfig = (dir / "cluster.kubeconfig").string();
  std::vector<std::string> argv{RRGEN_SOAK_CLUSTER, "--insecure-http", "--kubeconfig-out", c.kubeconfig};
  if (with_crd) {
    argv.insert(argv.end(), {"--simulate-workloads", "--crds", RRGEN_SOAK_CRD});
  }
  c.process = std::make_unique<Child>("rrgen-cluster", argv, dir / "cluster.log");
  const auto t0 = Clock::now();
  while (!fs::exists(c.kubeconfig)) {
    if (!c.process->running()) die("rrgen-cluster exited; see " + (dir / "cluster.log").string());
    if (since(t0) > 60) die("rrgen-cluster wrote no kubeconfig in 60 s");
    std::this_thread::sleep_for(50ms);
  }
  return c;
}

std::string load_average() {
  std::ifstream in("/proc/loadavg");
  std::string text;
  std::getline(in, text);
  return text + "\n";
}

std::string self_exe() { return fs::read_symlink("/proc/self/exe").string(); }

// ---------------------------------------------------------------------------------------------
// The soak.

struct Options {
  long webapps = 1000;
  long namespaces = 0;  // 0: webapps / 100, at least 1
  int workers = 4;
  double qps = 0;
  int shards = 1;
  long steady_seconds = 60;
  long wave_percent = 10;
  long timeout_seconds = 3600;
  int scrape_ms = 1000;
  std::string keep;
  bool fanout = false;
  long view_kb = -1;  // -1: the informers' default
};

struct Phase {
  std::string name;
  double wall = 0;
  double operator_cpu = 0, server_cpu = 0;
  double operator_peak_mb = 0, server_peak_mb = 0;  // VmHWM at the end of the phase (max over shards)
  double operator_rss_mb = 0;                       // summed over shards
  double depth_peak = 0;
  OperatorMetrics delta;  // counters over the phase
  long done = 0, expected = 0;
};

struct Processes {
  Cluster cluster;
  std::vector<std::unique_ptr<Child>> operators;
  std::vector<int> ports;
  ProcessFigures operators_now() const {
    ProcessFigures sum;
    for (const auto& op : operators) {
      const ProcessFigures f = op->sample();
      sum.cpu += f.cpu;
      sum.rss_mb += f.rss_mb;
      sum.peak_mb = std::max(sum.peak_mb, f.peak_mb);
    }
    return sum;
  }
};

// Runs one phase until `done()` reaches `expected` (or the timeout), scraping for the queue peak.
Phase run_phase(const std::string& name, Processes& p, long expected, const std::function<long()>& done,
                const Options& o, const std::function<void()>& start = {}) {
  Phase ph;
  ph.name = name;
  ph.expected = expected;
  const ProcessFigures op0 = p.operators_now();
  const ProcessFigures sv0 = p.cluster.process->sample();
  const OperatorMetrics m0 = scrape(p.ports);
  const auto t0 = Clock::now();
  if (start) start();
  auto last_log = Clock::now();
  while (true) {
    const OperatorMetrics m = scrape(p.ports);
    ph.depth_peak = std::max(ph.depth_peak, m.depth);
    ph.done = done();
    if (ph.done >= expected || since(t0) > static_cast<double>(o.timeout_seconds)) break;
    for (const auto& op : p.operators) {
      if (!op->running()) die(op->name() + " exited during " + name);
    }
    if (since(last_log) > 10) {
      std::cout << "  " << name << ": " << ph.done << "/" << expected << " after " << bench::fmt("%.0f", since(t0))
                << " s, queue depth " << m.depth << ", reconciles " << m.reconciles << "\n"
                << std::flush;
      last_log = Clock::now();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(o.scrape_ms));
  }
  ph.wall = since(t0);
  const ProcessFigures op1 = p.operators_now();
  const ProcessFigures sv1 = p.cluster.process->sample();
  ph.operator_cpu = op1.cpu - op0.cpu;
  ph.server_cpu = sv1.cpu - sv0.cpu;
  ph.operator_peak_mb = op1.peak_mb;
  ph.operator_rss_mb = op1.rss_mb;
  ph.server_peak_mb = sv1.peak_mb;
  ph.delta = scrape(p.ports) - m0;
  return ph;
}

void print_phases(const std::vector<Phase>& phases, const Options& o) {
  std::printf("\n%-10s %9s %8s %9s %9s %10s %10s %10s %10s %8s %9s\n", "phase", "wall s", "done", "op CPU s",
              "srv CPU s", "op peak MB", "op RSS MB", "srv peakMB", "reconciles", "errors", "queue max");
  for (const Phase& ph : phases) {
    std::printf("%-10s %9.1f %8s %9.1f %9.1f %10.0f %10.0f %10.0f %10.0f %8.0f %9.0f\n", ph.name.c_str(), ph.wall,
                (std::to_string(ph.done) + "/" + std::to_string(ph.expected)).c_str(), ph.operator_cpu, ph.server_cpu,
                ph.operator_peak_mb, ph.operator_rss_mb, ph.server_peak_mb, ph.delta.reconciles,
                ph.delta.reconcile_errors, ph.depth_peak);
  }
  std::printf("\nrequests per verb (rest_client_requests_total, all operators):\n%-10s", "phase");
  std::set<std::string> methods;
  for (const Phase& ph : phases) {
    for (const auto& [m, n] : ph.delta.requests) {
      if (n > 0) methods.insert(m);
    }
  }
  for (const auto& m : methods) std::printf(" %9s", m.c_str());
  std::printf(" %9s %12s\n", "total", "per WebApp");
  for (const Phase& ph : phases) {
    std::printf("%-10s", ph.name.c_str());
    double sum = 0;
    for (const auto& m : methods) {
      const double n = ph.delta.requests.count(m) != 0 ? ph.delta.requests.at(m) : 0;
      sum += n;
      std::printf(" %9.0f", n);
    }
    if (ph.name == "steady" || ph.expected == 0) {
      std::printf(" %9.0f %12s\n", sum, "-");
    } else {
      std::printf(" %9.0f %12.2f\n", sum, sum / static_cast<double>(std::max(1L, ph.expected)));
    }
  }
  std::printf("\nper WebApp (converge): operator %.2f ms CPU, server %.2f ms CPU, %.2f reconciles\n",
              phases[0].operator_cpu * 1000 / static_cast<double>(o.webapps),
              phases[0].server_cpu * 1000 / static_cast<double>(o.webapps),
              phases[0].delta.reconciles / static_cast<double>(o.webapps));
}

int soak(const Options& o) {
  const fs::path dir = o.keep.empty() ? fs::temp_directory_path() / ("bench_soak." + std::to_string(getpid()))
                                      : fs::path(o.keep);
  fs::create_directories(dir);
  const long namespaces = o.namespaces > 0 ? o.namespaces : std::max(1L, o.webapps / 100);
  std::printf(
      "bench_soak: %ld WebApps in %ld namespaces, %d operator process(es) of %d workers, client qps %s, informer "
      "views %s; %s\n",
      o.webapps, namespaces, o.shards, o.workers, o.qps > 0 ? bench::fmt("%.0f", o.qps).c_str() : "unlimited",
      o.view_kb < 0 ? "default" : (std::to_string(o.view_kb) + " KB").c_str(), bench::compiler_name());
  std::printf("load average at start: %s", load_average().c_str());
  std::fflush(stdout);

  Processes p;
  p.cluster = start_cluster(dir, true);
  rr::HttpClient user(unthrottled(p.cluster.kubeconfig, "soak-user"));
  const rr::KindInfo web_apps = user.kind_info({"web.example.rrgen.dev", "v1", "WebApp"});
  const rr::KindInfo ns_kind = user.kind_info({"", "v1", "Namespace"});
  const rr::KindInfo config_maps = user.kind_info({"", "v1", "ConfigMap"});

  for (int s = 0; s < o.shards; ++s) {
    const std::string port_file = (dir / ("operator-" + std::to_string(s) + ".port")).string();
    p.operators.push_back(std::make_unique<Child>(
        "operator-" + std::to_string(s),
        std::vector<std::string>{self_exe(), "--operator", p.cluster.kubeconfig, port_file, std::to_string(o.workers),
                                 bench::fmt("%g", o.qps), std::to_string(s), std::to_string(o.shards),
                                 std::to_string(o.view_kb)},
        dir / ("operator-" + std::to_string(s) + ".log")));
    const auto t0 = Clock::now();
    while (!fs::exists(port_file)) {
      if (!p.operators.back()->running()) die("the operator exited; see " + (dir / "operator.log").string());
      if (since(t0) > 60) die("the operator opened no metrics port in 60 s");
      std::this_thread::sleep_for(50ms);
    }
    int port = 0;
    std::ifstream(port_file) >> port;
    p.ports.push_back(port);
  }
  const ProcessFigures idle_op = p.operators_now();
  const ProcessFigures idle_sv = p.cluster.process->sample();
  std::printf("started: operator(s) RSS %.0f MB, server RSS %.0f MB (empty caches)\n", idle_op.rss_mb, idle_sv.rss_mb);

  for (long n = 0; n < namespaces; ++n) {
    const std::string ns = namespace_name(n);
    with_retries([&] {
      user.create(ns_kind, Json{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
    });
    with_retries([&] {
      user.create(config_maps, Json{{"apiVersion", "v1"},
                                    {"kind", "ConfigMap"},
                                    {"metadata", {{"namespace", ns}, {"name", "soak-config"}}},
                                    {"data", {{"GREETING", "hello from " + ns}}}});
    });
  }
  AppObserver observer(p.cluster.kubeconfig);

  std::vector<Phase> phases;
  double created_after = 0;
  phases.push_back(run_phase(
      "converge", p, o.webapps, [&] { return observer.converged(); }, o,
      [&] {
        const auto t0 = Clock::now();
        parallel_for(o.webapps, 4, [&](long i) {
          const std::string ns = namespace_name(i % namespaces);
          with_retries([&] { user.create(web_apps, web_app(ns, app_name(i), i, o.shards)); });
        });
        created_after = since(t0);
      }));
  std::printf("converge: created in %.1f s (the creates run inside the phase), all Ready after %.1f s\n", created_after,
              phases.back().wall);
  std::fflush(stdout);

  // After the last WebApp is Ready the queue still holds keys (a Deployment's status, the events'
  // own writes): the drain phase runs until nothing is queued and nothing written for 2 s (the
  // controller's events are written by a thread of their own; shards' Lease renewals are PUTs).
  auto drain = [&](const std::string& name) {
    auto writes = [](const OperatorMetrics& m) {
      return (m.requests.count("POST") != 0 ? m.requests.at("POST") : 0) +
             (m.requests.count("PATCH") != 0 ? m.requests.at("PATCH") : 0);
    };
    double last_writes = -1;
    auto last_change = Clock::now();
    Phase ph = run_phase(
        name, p, 1,
        [&] {
          const OperatorMetrics now = scrape(p.ports);
          if (now.depth > 0 || writes(now) != last_writes) {
            last_writes = writes(now);
            last_change = Clock::now();
          }
          return since(last_change) >= 2 ? 1L : 0L;
        },
        o);
    ph.expected = ph.done = 0;  // not a count of WebApps
    phases.push_back(std::move(ph));
  };
  drain("drain");
  {
    Phase steady = run_phase(
        "steady", p, o.steady_seconds, [&, t1 = Clock::now()] { return static_cast<long>(since(t1)); }, o);
    std::printf("steady: operator %.3f CPU s/min, server %.3f CPU s/min over %.0f s\n",
                steady.operator_cpu * 60 / steady.wall, steady.server_cpu * 60 / steady.wall, steady.wall);
    phases.push_back(std::move(steady));
  }

  // The update wave: every (100 / wave_percent)-th WebApp gets a new image.
  {
    std::vector<long> picked;
    const long step = std::max(1L, 100 / std::max(1L, o.wave_percent));
    for (long i = 0; i < o.webapps; i += step) picked.push_back(i);
    std::map<std::string, std::int64_t> targets;
    std::mutex targets_mutex;
    phases.push_back(run_phase(
        "wave", p, static_cast<long>(picked.size()),
        [&] {
          const std::lock_guard lock(targets_mutex);
          return static_cast<long>(targets.size()) < static_cast<long>(picked.size()) ? 0 : observer.reached(targets);
        },
        o,
        [&] {
          parallel_for(static_cast<long>(picked.size()), 4, [&](long j) {
            const long i = picked[static_cast<std::size_t>(j)];
            const std::string ns = namespace_name(i % namespaces);
            const rr::ObjectKey key{ns, app_name(i)};
            Json patched;
            with_retries([&] {
              patched = user.patch(web_apps, key, rr::PatchType::Merge,
                                   R"({"spec":{"image":"registry.example/soak:2.0"}})");
            });
            const std::lock_guard lock(targets_mutex);
            targets[key.str()] = patched["metadata"].value("generation", std::int64_t{0});
          });
        }));
    std::printf("wave: %zu WebApps patched, all Ready at their new generation after %.1f s\n", picked.size(),
                phases.back().wall);
  }
  drain("wave drain");
  const OperatorMetrics last = scrape(p.ports);
  std::printf("cached objects at the end (rr_informer_cache_objects, summed over operators):");
  for (const auto& [kind, n] : last.cached) std::printf(" %s %.0f", kind.c_str(), n);
  std::printf("\n");

  print_phases(phases, o);
  std::vector<ProcessFigures> finals;
  for (auto& op : p.operators) finals.push_back(op->stop());
  const ProcessFigures server_final = p.cluster.process->stop();
  std::printf("\nwhole run (wait4): ");
  for (std::size_t s = 0; s < finals.size(); ++s) {
    std::printf("operator-%zu %.1f CPU s, peak RSS %.0f MB; ", s, finals[s].cpu, finals[s].peak_mb);
  }
  std::printf("server %.1f CPU s, peak RSS %.0f MB\n", server_final.cpu, server_final.peak_mb);
  std::printf("load average at end: %s", load_average().c_str());
  if (o.keep.empty()) fs::remove_all(dir);
  const bool ok = phases[0].done == phases[0].expected && phases[3].done == phases[3].expected;
  if (!ok) std::printf("NOT CONVERGED (logs in %s)\n", dir.c_str());
  return ok ? 0 : 1;
}

// ---------------------------------------------------------------------------------------------
// Watch fan-out.

class Watcher {
 public:
  Watcher(const std::string& kubeconfig, const rr::KindInfo& kind, const std::string& selector)
      : client_(unthrottled(kubeconfig, "soak-watcher")) {
    rr::ListOptions options;
    options.label_selector = selector;
    const Json list = client_.list(kind, options);
    options.resource_version = list["metadata"].value("resourceVersion", "");
    watch_ = client_.watch(kind, options);
    thread_ = std::jthread([this](std::stop_token stop) {
      while (!stop.stop_requested() && !watch_->stopped()) {
        if (auto event = watch_->next(200ms); event && event->type == rr::WatchEventType::Modified) ++events_;
      }
    });
  }
  ~Watcher() {
    thread_.request_stop();
    watch_->stop();
  }
  Watcher(const Watcher&) = delete;
  Watcher& operator=(const Watcher&) = delete;
  long events() const { return events_; }

 private:
  rr::HttpClient client_;
  std::unique_ptr<rr::Watch> watch_;
  std::atomic<long> events_{0};
  std::jthread thread_;
};

int fanout(const Options& o) {
  const fs::path dir = fs::temp_directory_path() / ("bench_soak_fanout." + std::to_string(getpid()));
  fs::create_directories(dir);
  std::printf("bench_soak --fanout: %ld ConfigMaps in one namespace, an update of each per wave; %s\n", o.webapps,
              bench::compiler_name());
  Cluster cluster = start_cluster(dir, false);
  rr::HttpClient user(unthrottled(cluster.kubeconfig, "soak-user"));
  const rr::KindInfo config_maps = user.kind_info({"", "v1", "ConfigMap"});
  parallel_for(o.webapps, 4, [&](long i) {
    with_retries([&] {
      user.create(config_maps,
                  Json{{"apiVersion", "v1"},
                       {"kind", "ConfigMap"},
                       {"metadata",
                        {{"namespace", "default"},
                         {"name", app_name(i)},
                         {"labels", {{shard_label, std::to_string(shard_of("default/" + app_name(i), 4))}}}}},
                       {"data", {{"value", "0"}, {"payload", std::string(512, 'x')}}}});
    });
  });
  std::printf("%-28s %9s %12s %14s %16s\n", "watchers", "wall s", "srv CPU s", "events out", "srv CPU/event us");
  double base_cpu = 0;
  int wave = 0;
  struct Case {
    int watchers;
    bool sharded;
  };
  for (const Case c : {Case{0, false}, Case{1, false}, Case{2, false}, Case{4, false}, Case{4, true}}) {
    std::vector<std::unique_ptr<Watcher>> watchers;
    for (int w = 0; w < c.watchers; ++w) {
      watchers.push_back(std::make_unique<Watcher>(
          cluster.kubeconfig, config_maps, c.sharded ? std::string(shard_label) + "=" + std::to_string(w) : ""));
    }
    ++wave;
    const double cpu0 = cluster.process->sample().cpu;
    const auto t0 = Clock::now();
    parallel_for(o.webapps, 4, [&](long i) {
      with_retries([&] {
        user.patch(config_maps, {"default", app_name(i)}, rr::PatchType::Merge,
                   R"({"data":{"value":")" + std::to_string(wave) + "\"}}");
      });
    });
    // Every watcher has had every event meant for it.
    const long expected = c.sharded ? o.webapps : o.webapps * c.watchers;
    auto delivered = [&] {
      long n = 0;
      for (const auto& w : watchers) n += w->events();
      return n;
    };
    while (delivered() < expected && since(t0) < 300) std::this_thread::sleep_for(50ms);
    std::this_thread::sleep_for(200ms);
    const double cpu = cluster.process->sample().cpu - cpu0;
    if (c.watchers == 0) base_cpu = cpu;
    const std::string label = std::to_string(c.watchers) + (c.sharded ? " (each selects 1/4)" : " (all objects)");
    std::printf(
        "%-28s %9.1f %12.2f %14ld %16s\n", label.c_str(), since(t0), cpu, delivered(),
        delivered() > 0 ? bench::fmt("%.1f", (cpu - base_cpu) * 1e6 / static_cast<double>(delivered())).c_str() : "-");
    std::fflush(stdout);
  }
  std::printf("(srv CPU/event: the server's CPU for the wave beyond the wave without watchers, per event sent)\n");
  const ProcessFigures final_figures = cluster.process->stop();
  std::printf("server: %.1f CPU s in all, peak RSS %.0f MB\n", final_figures.cpu, final_figures.peak_mb);
  fs::remove_all(dir);
  return 0;
}

long number(const std::string& text, const std::string& flag) {
  try {
    std::size_t used = 0;
    const long n = std::stol(text, &used);
    if (used == text.size() && n >= 0) return n;
  } catch (const std::exception&) {
  }
  die(flag + " needs a non-negative integer, got \"" + text + "\"");
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (!args.empty() && args[0] == "--operator") {
    if (args.size() != 8) die("--operator KUBECONFIG PORT_FILE WORKERS QPS SHARD SHARDS VIEW_KB");
    return run_operator_process(args[1], args[2], static_cast<int>(number(args[3], "WORKERS")), std::stof(args[4]),
                                static_cast<int>(number(args[5], "SHARD")), static_cast<int>(number(args[6], "SHARDS")),
                                std::stol(args[7]));
  }
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& flag = args[i];
    auto value = [&]() -> const std::string& {
      if (i + 1 >= args.size()) die(flag + " needs a value");
      return args[++i];
    };
    if (flag == "--webapps") {
      o.webapps = std::max(1L, number(value(), flag));
    } else if (flag == "--namespaces") {
      o.namespaces = number(value(), flag);
    } else if (flag == "--workers") {
      o.workers = static_cast<int>(std::max(1L, number(value(), flag)));
    } else if (flag == "--qps") {
      o.qps = static_cast<double>(number(value(), flag));
    } else if (flag == "--shards") {
      o.shards = static_cast<int>(std::clamp(number(value(), flag), 1L, 16L));
    } else if (flag == "--steady-seconds") {
      o.steady_seconds = number(value(), flag);
    } else if (flag == "--wave-percent") {
      o.wave_percent = std::clamp(number(value(), flag), 1L, 100L);
    } else if (flag == "--timeout-seconds") {
      o.timeout_seconds = number(value(), flag);
    } else if (flag == "--scrape-ms") {
      o.scrape_ms = static_cast<int>(std::max(50L, number(value(), flag)));
    } else if (flag == "--keep") {
      o.keep = value();
    } else if (flag == "--fanout") {
      o.fanout = true;
    } else if (flag == "--view-cache-kb") {
      o.view_kb = number(value(), flag);
    } else {
      die("unknown flag " + flag +
          "\nusage: bench_soak [--webapps N] [--namespaces N] [--workers N] [--qps Q] [--shards N] [--steady-seconds S]"
          " [--wave-percent P] [--timeout-seconds S] [--scrape-ms MS] [--keep DIR] [--view-cache-kb KB]"
          " | --fanout [--webapps N]");
    }
  }
  curl_global_init(CURL_GLOBAL_DEFAULT);
  signal(SIGPIPE, SIG_IGN);
  return o.fanout ? fanout(o) : soak(o);
}
