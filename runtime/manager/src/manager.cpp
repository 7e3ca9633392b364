// The manager's run loop: servers, runnables, leader election, and the shutdown sequence of
// controller-runtime's pkg/manager/internal.go.
#include "rr/manager/manager.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "manager_http.hpp"
#include "metrics_auth.hpp"
#include "rr/controller/leader_election.hpp"
#include "rr/controller/metrics.hpp"
#include "rr/controller/process_metrics.hpp"
#include "rr/controller/runnable.hpp"
#include "rr/core/go_duration.hpp"
#include "rr/http_server/self_signed.hpp"
#include "rr/http_server/tls.hpp"
#include "rr/manager/json_log.hpp"
#include "rr/manager/signals.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/webhook/server.hpp"

namespace rr {
namespace {

constexpr const char* kServiceAccountNamespaceFile = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";

// "<hostname>_<uuid v4>", client-go's identity for a leader-election candidate.
std::string make_identity() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') std::snprintf(host, sizeof host, "unknown");
  std::random_device random;
  std::uniform_int_distribution<int> nibble(0, 15);
  std::string uuid;
  const char* hex = "0123456789abcdef";
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) uuid += '-';
    int value = nibble(random);
    if (i == 12) value = 4;                   // version 4
    if (i == 16) value = 8 | (value & 3);     // variant 10xx
    uuid += hex[value];
  }
  return std::string(host) + "_" + uuid;
}

std::string in_cluster_namespace() {
  std::ifstream file(kServiceAccountNamespaceFile);
  std::string ns;
  if (file) std::getline(file, ns);
  return ns;
}

Clock::duration to_clock(std::chrono::nanoseconds d) { return std::chrono::duration_cast<Clock::duration>(d); }

// One added runnable and whether it has been started (readyz only asks started ones).
struct Entry {
  std::shared_ptr<Runnable> runnable;
  std::string name;
  bool needs_leader = false;
  std::atomic<bool> started{false};
  bool returned = false;  // guarded by RunState::mutex
};

// What the runnable threads report. Shared with them: a thread still signals through it after
// ~Manager() has seen it finish and gone on.
struct RunState {
  std::mutex mutex;
  std::condition_variable changed;
  int running = 0;
  int leader_running = 0;
  std::vector<std::string> failures;  // "<name>: <what>"
  bool shutting_down = false;
  bool leading = false;
  bool lease_lost = false;
};

}  // namespace

struct Manager::Impl {
  ManagerOptions options;
  std::shared_ptr<Client> api;
  Logger log;
  metrics::Registry registry;
  metrics::ProcessMetrics process{registry};  // process_*, as every Go operator exposes them
  HealthChecks healthz;
  HealthChecks readyz;
  std::vector<std::function<void()>> collectors;
  std::vector<std::shared_ptr<Entry>> entries;
  std::optional<BindAddress> metrics_address;
  std::shared_ptr<MetricsAuth> metrics_auth;  // with --metrics-secure
  std::optional<BindAddress> probe_address;
  std::optional<LeaderElectionConfig> election;
  metrics::Gauge* leader_gauge = nullptr;
  std::unique_ptr<webhook::Server> webhooks;

  std::mutex mutex;  // `running` and the lists above once run() may have begun
  bool running = false;
  std::atomic<int> metrics_port{0};
  std::atomic<int> probe_port{0};
  std::atomic<int> webhook_port{0};
  std::shared_ptr<RunState> state = std::make_shared<RunState>();
  std::stop_source leader_stop;
  std::stop_source others_stop;

  // Starts `entry` on a detached thread; the caller holds state->mutex. The thread may outlive
  // run() (an overrun grace period, a lost lease) but not the Manager: ~Manager() waits until it
  // has counted itself out, after which it touches nothing but `state` (hence the raw `entry`:
  // the runnable is released by the Manager, on the destroying thread, never by a late thread).
  void start_locked(Entry* entry, std::stop_token token) {
    ++state->running;
    if (entry->needs_leader) ++state->leader_running;
    entry->started = true;
    log.with("name", entry->name).info("Starting runnable");
    std::thread([state = state, entry, token = std::move(token), runnable_log = log.with("name", entry->name)]() mutable {
      std::string failure;
      try {
        entry->runnable->start(token);
      } catch (const std::exception& e) {
        failure = e.what();
      } catch (...) {
        failure = "unknown exception";
      }
      if (!failure.empty()) runnable_log.error(Error::make(failure), "runnable failed");
      runnable_log = Logger();  // released before counting out: afterwards only `state` is the thread's
      const std::lock_guard lock(state->mutex);
      --state->running;
      if (entry->needs_leader) --state->leader_running;
      entry->returned = true;
      if (!failure.empty()) state->failures.push_back(entry->name + ": " + failure);
      state->changed.notify_all();
    }).detach();
  }

  void start_leader_runnables() {
    const std::lock_guard lock(state->mutex);
    if (state->shutting_down) return;
    for (const auto& entry : entries) {
      if (entry->needs_leader) start_locked(entry.get(), leader_stop.get_token());
    }
  }

  // Waits until no runnable of the group runs or `deadline` passes (nullopt: for ever).
  bool wait_group(bool leaders_only, std::optional<std::chrono::steady_clock::time_point> deadline) {
    std::unique_lock lock(state->mutex);
    auto done = [&] { return (leaders_only ? state->leader_running : state->running) == 0; };
    if (!deadline) {
      state->changed.wait(lock, done);
      return true;
    }
    return state->changed.wait_until(lock, *deadline, done);
  }

  LeaderElectionCallbacks election_callbacks() {
    LeaderElectionCallbacks callbacks;
    callbacks.on_started_leading = [this](std::stop_token) {
      log.info("successfully acquired lease " + election->namespace_ + "/" + election->name);
      {
        const std::lock_guard lock(state->mutex);
        state->leading = true;
      }
      if (leader_gauge != nullptr) leader_gauge->set(1);
      start_leader_runnables();
    };
    callbacks.on_stopped_leading = [this] {
      if (leader_gauge != nullptr) leader_gauge->set(0);
      const std::lock_guard lock(state->mutex);
      if (state->leading && !state->shutting_down) state->lease_lost = true;
      state->leading = false;
      state->changed.notify_all();
    };
    callbacks.on_new_leader = [this](const std::string& identity) {
      if (!identity.empty()) log.with("identity", identity).info("new leader elected");
    };
    callbacks.on_error = [this](const std::string& what, const std::string& error) {
      log.error(Error::make(error), what);
    };
    return callbacks;
  }

  bool start_servers() {
    try {
      if (webhooks->has_handlers()) {
        log.with("port", std::to_string(options.webhook_port))
            .with("certDir", options.webhook_cert_dir)
            .info("Starting webhook server");
        webhook_port = webhooks->start();
        log.with("host", options.webhook_host)
            .with("port", std::to_string(webhook_port.load()))
            .info("Serving webhook server");
      }
      if (metrics_address) {
        metrics_server.serve_metrics(
            registry,
            [this] {
              for (const auto& collect : collectors) collect();
            },
            metrics_auth);
        metrics_port = metrics_server.start(*metrics_address, metrics_certificate());
        log.with("bindAddress", options.metrics_bind_address)
            .with("port", std::to_string(metrics_port.load()))
            .with("secure", options.metrics_secure ? "true" : "false")
            .info("Serving metrics server");
      }
      if (probe_address) {
        probe_server.serve_probes(healthz, readyz);
        probe_port = probe_server.start(*probe_address);
        log.with("bindAddress", options.health_probe_bind_address).with("port", std::to_string(probe_port.load()))
            .info("Serving health probe server");
      }
      return true;
    } catch (const std::exception& e) {
      log.error(Error::make(e.what()), "failed to start an HTTP server");
      return false;
    }
  }

  // The metrics server's certificate: none without --metrics-secure, the files under
  // --metrics-cert-path (reloaded when they change), else a self-signed one made now.
  std::shared_ptr<http_server::CertificateFiles> metrics_certificate() const {
    if (!options.metrics_secure) return nullptr;
    if (!options.metrics_cert_path.empty()) {
      log.with("path", options.metrics_cert_path).info("Using certificates from the metrics cert path");
      const std::string dir = options.metrics_cert_path + "/";
      return std::make_shared<http_server::CertificateFiles>(
          dir + options.metrics_cert_name, dir + options.metrics_cert_key,
          [log = log](std::string_view message) { log.info(message); });
    }
    const auto pem = http_server::make_self_signed_certificate({"localhost"}, {"127.0.0.1"});
    return http_server::CertificateFiles::from_pem(pem.cert_pem, pem.key_pem);
  }

  HttpServer metrics_server;
  HttpServer probe_server;
};

Manager::Manager(ManagerOptions options, std::shared_ptr<Client> api)
    : Manager(options, std::move(api), make_logger(options)) {}

Manager::Manager(ManagerOptions options, std::shared_ptr<Client> api, Logger log) : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.metrics_address = parse_bind_address(options.metrics_bind_address);
  if (m.metrics_address && options.metrics_secure) m.metrics_auth = std::make_shared<MetricsAuth>(api, log);
  m.probe_address = parse_bind_address(options.health_probe_bind_address);
  if (options.leader_elect) {
    if (!api) throw std::invalid_argument("leader election needs an API client");
    if (options.leader_election_id.empty()) {
      throw std::invalid_argument("LeaderElectionID must be configured (--leader-election-id)");
    }
    LeaderElectionConfig config;
    config.name = options.leader_election_id;
    config.namespace_ = options.leader_election_namespace.empty() ? in_cluster_namespace()
                                                                   : options.leader_election_namespace;
    if (config.namespace_.empty()) {
      throw std::invalid_argument(
          "unable to find leader election namespace: not running in cluster, please specify "
          "--leader-election-namespace");
    }
    config.identity = make_identity();
    config.lease_duration = to_clock(options.lease_duration);
    config.renew_deadline = to_clock(options.renew_deadline);
    config.retry_period = to_clock(options.retry_period);
    config.release_on_cancel = true;
    config.validate();
    m.election = config;
    m.leader_gauge = &m.registry
                          .gauge("leader_election_master_status",
                                 "Gauge of if the reporting system is master of the relevant lease, 0 indicates "
                                 "backup, 1 indicates master. 'name' is the string used to identify the lease. "
                                 "Please make sure to group by name.",
                                 {"name"})
                          .with({config.name});
  }
  webhook::ServerOptions webhook_options;
  webhook_options.host = options.webhook_host;
  webhook_options.port = options.webhook_port;
  webhook_options.cert_dir = options.webhook_cert_dir;
  webhook_options.log = [webhook_log = log.with("logger", "controller-runtime.webhook")](std::string_view line) {
    webhook_log.info(line);
  };
  m.webhooks = std::make_unique<webhook::Server>(std::move(webhook_options));
  m.options = std::move(options);
  m.api = std::move(api);
  m.log = std::move(log);
  m.healthz.add("ping", [] { return true; });
  m.collectors.emplace_back([&process = m.process] { process.collect(); });
}

// Runnables still running after run() returned (an overrun grace period, a lost lease) use what
// the Manager owns (metrics(), the logger, the runnables themselves): destroying it under them
// would be a use-after-free, so the destructor waits for them. They have all been asked to stop;
// one that never returns blocks this for ever (it breaks the Runnable contract).
Manager::~Manager() {
  Impl& m = *impl_;
  m.leader_stop.request_stop();  // already done by run(); here should run() never have been called
  m.others_stop.request_stop();
  if (wait_for_runnables(std::chrono::seconds(0))) return;
  std::string names;
  {
    const std::lock_guard lock(m.state->mutex);
    for (const auto& entry : m.entries) {
      if (entry->started && !entry->returned) names += (names.empty() ? "" : ", ") + entry->name;
    }
  }
  m.log.with("runnables", names).info("Waiting for the runnables still running before destroying the manager");
  std::unique_lock lock(m.state->mutex);
  m.state->changed.wait(lock, [&m] { return m.state->running == 0; });
}

void Manager::add(std::shared_ptr<Runnable> runnable) {
  if (!runnable) throw std::invalid_argument("rr::Manager::add: null runnable");
  Impl& m = *impl_;
  const std::lock_guard lock(m.mutex);
  if (m.running) throw std::logic_error("rr::Manager::add: the manager is already running");
  auto entry = std::make_shared<Entry>();
  entry->name = runnable->name();
  entry->needs_leader = runnable->needs_leader_election();
  entry->runnable = std::move(runnable);
  // One readyz check per name, over every runnable of that name: ready once started and ready;
  // one not started yet (a follower's controllers) does not hold readiness back.
  bool name_taken = false;
  for (const auto& other : m.entries) name_taken = name_taken || other->name == entry->name;
  m.entries.push_back(entry);
  if (name_taken) return;
  m.readyz.add(entry->name, [&m, name = entry->name] {
    const std::lock_guard entries_lock(m.mutex);
    for (const auto& e : m.entries) {
      if (e->name == name && e->started && !e->runnable->ready()) return false;
    }
    return true;
  });
}

void Manager::add_healthz_check(std::string name, HealthCheck check) {
  impl_->healthz.add(std::move(name), std::move(check));
}

void Manager::add_readyz_check(std::string name, HealthCheck check) {
  impl_->readyz.add(std::move(name), std::move(check));
}

void Manager::add_metrics_collector(std::function<void()> collect) {
  const std::lock_guard lock(impl_->mutex);
  if (impl_->running) throw std::logic_error("rr::Manager::add_metrics_collector: the manager is already running");
  impl_->collectors.push_back(std::move(collect));
}

int Manager::run(std::stop_token stop) {
  Impl& m = *impl_;
  {
    const std::lock_guard lock(m.mutex);
    if (m.running) throw std::logic_error("rr::Manager::run: called twice");
    m.running = true;
  }
  const std::shared_ptr<RunState> state = m.state;
  m.log.info("Starting manager");
  const std::vector<std::string> healthz_names = m.healthz.names();
  if (m.webhooks->has_handlers() &&
      std::find(healthz_names.begin(), healthz_names.end(), "webhook") == healthz_names.end()) {
    // controller-runtime's webhook StartedChecker: a TLS handshake with the server succeeds. A
    // check the operator named "webhook" itself is kept.
    m.healthz.add("webhook", [server = m.webhooks.get()] { return !server->check_started(std::chrono::seconds(1)); });
  }
  if (!m.start_servers()) {
    m.webhooks->stop();
    m.metrics_server.stop();
    m.probe_server.stop();
    return 1;
  }

  // Runnables without leader election at once; the others when this process leads.
  std::unique_ptr<LeaderElector> elector;
  std::jthread elector_thread;
  {
    const std::lock_guard lock(state->mutex);
    for (const auto& entry : m.entries) {
      if (!entry->needs_leader) m.start_locked(entry.get(), m.others_stop.get_token());
    }
  }
  if (m.election) {
    elector = std::make_unique<LeaderElector>(m.api, *m.election);
    m.log.with("identity", m.election->identity)
        .info("attempting to acquire leader lease " + m.election->namespace_ + "/" + m.election->name + "...");
    elector_thread = std::jthread([&elector, callbacks = m.election_callbacks()](std::stop_token token) {
      elector->run(token, callbacks);
    });
  } else {
    m.start_leader_runnables();
  }

  // Wait for the stop request, a failure, or the loss of the lease.
  {
    std::stop_callback wake(stop, [&state] {
      const std::lock_guard lock(state->mutex);
      state->changed.notify_all();
    });
    std::unique_lock lock(state->mutex);
    state->changed.wait(lock, [&] { return stop.stop_requested() || !state->failures.empty() || state->lease_lost; });
  }

  int exit_code = 0;
  std::chrono::nanoseconds grace = m.options.graceful_shutdown_timeout;
  {
    const std::lock_guard lock(state->mutex);
    state->shutting_down = true;
    if (state->lease_lost) {
      m.log.error(Error::make("leader election lost"), "problem running manager");
      grace = std::chrono::nanoseconds(0);  // another process leads already: do not linger
      exit_code = 1;
    } else if (!state->failures.empty()) {
      m.log.error(Error::make(state->failures.front()), "problem running manager");
      exit_code = 1;
    }
  }

  // Shutdown: controllers first (their queues drain, in-flight reconciles finish), then the rest,
  // all within one grace period.
  std::optional<std::chrono::steady_clock::time_point> deadline;
  if (grace >= std::chrono::nanoseconds(0)) {
    deadline = std::chrono::steady_clock::now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(grace);
  }
  m.log.info("Stopping and waiting for leader election runnables");
  m.leader_stop.request_stop();
  bool in_time = m.wait_group(true, deadline);
  m.log.info("Stopping and waiting for non leader election runnables");
  m.others_stop.request_stop();
  in_time = m.wait_group(false, deadline) && in_time;
  if (!in_time && exit_code == 0) {
    m.log.error(Error::make("failed waiting for all runnables to end within grace period of " + format_go_duration(grace)),
                "problem running manager");
    exit_code = 1;
  }
  {
    const std::lock_guard lock(state->mutex);
    if (exit_code == 0 && !state->failures.empty()) {  // failed while stopping
      m.log.error(Error::make(state->failures.front()), "problem running manager");
      exit_code = 1;
    }
  }
  if (elector_thread.joinable()) {  // releases the lease (release_on_cancel)
    elector_thread.request_stop();
    elector_thread.join();
  }
  m.webhooks->stop();
  m.metrics_server.stop();
  m.probe_server.stop();
  m.metrics_port = 0;
  m.probe_port = 0;
  m.webhook_port = 0;
  m.log.info(exit_code == 0 ? "Stopped manager" : "Stopped manager with errors");
  return exit_code;
}

bool Manager::wait_for_runnables(std::chrono::steady_clock::duration timeout) {
  const std::shared_ptr<RunState>& state = impl_->state;
  std::unique_lock lock(state->mutex);
  return state->changed.wait_for(lock, timeout, [&state] { return state->running == 0; });
}

int Manager::run_until_signal() {
  const SignalStop signals(impl_->log);
  return run(signals.token());
}

metrics::Registry& Manager::metrics() { return impl_->registry; }
const std::shared_ptr<Client>& Manager::client() const noexcept { return impl_->api; }
const Logger& Manager::logger() const noexcept { return impl_->log; }
const ManagerOptions& Manager::options() const noexcept { return impl_->options; }
int Manager::metrics_port() const { return impl_->metrics_port.load(); }
int Manager::health_probe_port() const { return impl_->probe_port.load(); }
int Manager::webhook_port() const { return impl_->webhook_port.load(); }
webhook::Server& Manager::webhook_server() { return *impl_->webhooks; }

bool Manager::is_leader() const {
  const std::lock_guard lock(impl_->state->mutex);
  return impl_->state->leading;
}

std::string Manager::identity() const { return impl_->election ? impl_->election->identity : std::string(); }

}  // namespace rr
