#include "pod_worker.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

#include "container_process.hpp"
#include "pod_events.hpp"
#include "rr/client/api_error.hpp"
#include "rr/core/time.hpp"
#include "rr/node/container_config.hpp"

namespace rr::node_detail {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

void AgentShared::log(const std::string& line) const {
  if (options.log) options.log(line);
  else std::cerr << "node-agent: " << line << "\n";
}

namespace {

std::string now_text() { return Time::from(std::chrono::system_clock::now()).str(); }

std::string random_id() {
  static std::mutex mutex;
  static std::mt19937_64 random{std::random_device{}()};
  std::lock_guard lock(mutex);
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  for (int i = 0; i < 64; ++i) id += hex[random() % 16];
  return id;
}

std::string str(const Json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::optional<std::int64_t> integer(const Json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

// A name of the image's /etc/passwd or /etc/group as its id.
std::optional<std::uint32_t> lookup_id(const fs::path& rootfs, const char* file, const std::string& name,
                                       std::optional<std::uint32_t>* primary_group = nullptr) {
  std::ifstream in(in_root(rootfs, file));
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream s(line);
    for (std::string part; std::getline(s, part, ':');) f.push_back(part);
    if (f.size() < 4 || f[0] != name) continue;
    try {
      if (primary_group) *primary_group = static_cast<std::uint32_t>(std::stoul(f[3]));
      return static_cast<std::uint32_t>(std::stoul(f[2]));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// A duration as Go's time.Duration.String() prints the kubelet's back-off: 200ms, 10s, 1m20s, 5m0s.
std::string go_duration(std::chrono::milliseconds d) {
  const auto ms = d.count();
  if (ms < 1000) return std::to_string(ms) + "ms";
  const auto seconds = ms / 1000, rest = ms % 1000;
  std::string s = std::to_string(seconds % 60);
  if (rest) {
    std::string frac = std::to_string(1000 + rest).substr(1);
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    s += "." + frac;
  }
  s += "s";
  if (seconds >= 60) s = std::to_string(seconds / 60 % 60) + "m" + s;
  if (seconds >= 3600) s = std::to_string(seconds / 3600) + "h" + s;
  return s;
}

bool numeric(const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; }

Json condition(const char* type, bool status, const std::string& now, const std::string& reason = {},
               const std::string& message = {}) {
  Json c = {
      {"type", type}, {"status", status ? "True" : "False"}, {"lastProbeTime", nullptr}, {"lastTransitionTime", now}};
  if (!reason.empty()) c["reason"] = reason;
  if (!message.empty()) c["message"] = message;
  return c;
}

std::string qos_class(const Json& spec) {
  for (const Json& container : spec.value("containers", Json::array())) {
    if (container.contains("resources") && !container["resources"].empty()) return "Burstable";
  }
  return "BestEffort";
}

}  // namespace

PodWorker::PodWorker(std::shared_ptr<AgentShared> shared, Json pod) : shared_(std::move(shared)), pod_(std::move(pod)) {
  const Json meta = pod_.value("metadata", Json::object());
  uid_ = str(meta, "uid");
  name_ = str(meta, "name");
  namespace_ = str(meta, "namespace");
  dir_ = shared_->options.state_dir / "pods" / (namespace_ + "_" + name_ + "_" + uid_);
  for (const Json& c : pod_.at("/spec/containers"_json_pointer)) {
    ContainerRun run;
    run.name = str(c, "name");
    run.spec = c;
    run.log_dir = dir_ / run.name;
    containers_.push_back(std::move(run));
  }
  volumes_ = std::make_unique<PodVolumes>(dir_ / "volumes", object_lookup(), shared_->options.mint_token,
                                          shared_->options.ca_pem);
  thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

PodWorker::~PodWorker() {
  if (!shutdown_) thread_.request_stop();  // after shutdown() the thread ends once its containers are gone
  if (thread_.joinable()) thread_.join();
  std::lock_guard lock(mutex_);
  for (auto& c : containers_) {
    if (c.pid > 0) {
      signal(c, SIGKILL);
      ::waitpid(c.pid, nullptr, 0);
      c.pid = -1;
    }
  }
}

void PodWorker::update(Json pod) {
  std::lock_guard lock(mutex_);
  pod_ = std::move(pod);
}

void PodWorker::deleted() {
  std::lock_guard lock(mutex_);
  gone_ = true;
}

void PodWorker::shutdown() { shutdown_ = true; }

node::ObjectLookup PodWorker::object_lookup() const {
  return [shared = shared_, ns = namespace_](std::string_view kind, const std::string& name) -> std::optional<Json> {
    const auto& k = kind == "Secret"           ? shared->secret_kind
                    : kind == "ServiceAccount" ? shared->service_account_kind
                                               : shared->config_map_kind;
    if (!k) return std::nullopt;
    try {
      return shared->cluster->get(*k, {ns, name});
    } catch (const ApiError&) {
      return std::nullopt;
    }
  };
}

std::string PodWorker::pod_label() const { return name_ + "_" + namespace_ + "(" + uid_ + ")"; }

std::string PodWorker::pod_ip() const { return network_ ? network_->pod_ip() : shared_->options.host_ip; }

std::string PodWorker::host_ip() const { return network_ ? network_->host_ip() : shared_->options.host_ip; }

void PodWorker::close_network() {
  std::unique_ptr<PodNetwork> network;  // destroyed (links deleted) once the lock is released
  std::lock_guard lock(mutex_);
  network = std::move(network_);
}

std::chrono::milliseconds PodWorker::delay(int failures) const {
  if (failures <= 0) return 0ms;
  auto d = shared_->options.backoff_base;
  for (int i = 1; i < failures && d < shared_->options.backoff_max; ++i) d *= 2;
  return std::min(d, shared_->options.backoff_max);
}

void PodWorker::back_off(ContainerRun& c, const std::string& reason, const std::string& message) {
  ++c.failures;
  c.retry = std::chrono::steady_clock::now() + std::max(delay(c.failures), shared_->options.backoff_base);
  c.state = Json{{"waiting", {{"reason", reason}, {"message", message}}}};
}

void PodWorker::run(std::stop_token stop) {
  start_time_ = now_text();
  // Bind the pod to this node and hold it with the finalizer while containers may run (a write
  // that raced ours is a 409: read again and retry).
  for (int attempt = 0;; ++attempt) {
    try {
      Json pod = shared_->cluster->get(shared_->pod_kind, {namespace_, name_});
      if (str(pod["metadata"], "uid") != uid_) throw std::runtime_error("the pod was replaced");
      Json finalizers = pod.value("/metadata/finalizers"_json_pointer, Json::array());
      if (std::find(finalizers.begin(), finalizers.end(), node::node_agent_finalizer) == finalizers.end()) {
        finalizers.push_back(node::node_agent_finalizer);
      }
      Json patch = {
          {"metadata", {{"finalizers", finalizers}, {"resourceVersion", pod["metadata"]["resourceVersion"]}}}};
      if (str(pod.value("spec", Json::object()), "nodeName").empty()) {
        patch["spec"] = {{"nodeName", shared_->options.node_name}};
      }
      update(shared_->cluster->patch(shared_->pod_kind, {namespace_, name_}, PatchType::Merge, patch.dump()));
      break;
    } catch (const std::exception& e) {
      const auto* api = dynamic_cast<const ApiError*>(&e);
      if (api && api->status().code == 409 && attempt < 20 && !stop.stop_requested()) continue;
      shared_->log("pod " + namespace_ + "/" + name_ + ": cannot take it: " + e.what());
      finished_ = true;
      return;
    }
  }
  while (!stop.stop_requested()) {
    Json pod;
    bool gone;
    {
      std::lock_guard lock(mutex_);
      pod = pod_;
      gone = gone_;
    }
    if (shutdown_) {
      terminate_all(0ms);
      close_network();
      volumes_->remove();
      release();
      break;
    }
    if (gone || pod.contains("/metadata/deletionTimestamp"_json_pointer)) {
      const auto grace = integer(pod.value("spec", Json::object()), "terminationGracePeriodSeconds").value_or(30);
      terminate_all(std::chrono::seconds(grace));
      if (!gone) {
        try {
          write_status(pod);  // the terminated states, as the kubelet reports them before the pod goes
        } catch (const std::exception&) {
        }
      }
      finished_ = true;  // before the object goes: its logs go with it
      close_network();   // before too: a deleted pod has left no link behind
      volumes_->remove();
      release();
      break;
    }
    sync_volumes(pod);
    {
      std::lock_guard lock(mutex_);
      for (auto& c : containers_) step(c, pod);
    }
    try {
      write_status(pod);
    } catch (const ApiError& e) {
      if (e.status().code == 404) {
        deleted();
        continue;
      }
    } catch (const std::exception&) {
    }
    std::this_thread::sleep_for(shared_->options.poll);
  }
  finished_ = true;
}

void PodWorker::sync_volumes(const Json& pod) {
  const std::optional<std::string> before = volumes_->failure();
  volumes_->sync(pod);
  const std::optional<std::string>& failure = volumes_->failure();
  if (failure && failure != before) {
    shared_->log("pod " + namespace_ + "/" + name_ + ": FailedMount: " + *failure);
    record_event(*shared_, pod, "Warning", "FailedMount", *failure);
  }
  const bool has_volumes = !pod.value("/spec/volumes"_json_pointer, Json::array()).empty() ||
                           !volumes_->token_volume().empty();
  if (!shared_->isolate && !told_unmounted_ && has_volumes) {
    told_unmounted_ = true;
    shared_->log("pod " + namespace_ + "/" + name_ + ": not root: volumes are written under " +
                 (dir_ / "volumes").string() + " but not mounted into the containers");
  }
}

void PodWorker::reap(ContainerRun& c) {
  int status = 0;
  const pid_t r = ::waitpid(c.pid, &status, WNOHANG);
  if (r != c.pid) return;
  if (!shared_->isolate) ::kill(-c.pid, SIGKILL);  // what it left behind in its group
  c.pid = -1;
  if (c.pump) c.pump->join();
  c.pump.reset();
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  c.state = Json{{"terminated",
                  {{"exitCode", code},
                   {"reason", code == 0 ? "Completed" : "Error"},
                   {"startedAt", c.started_at},
                   {"finishedAt", now_text()},
                   {"containerID", "rrgen://" + c.container_id}}}};
  const std::string policy = str(pod_.value("spec", Json::object()), "restartPolicy");
  const bool restart = policy.empty() || policy == "Always" || (policy == "OnFailure" && code != 0);
  if (!restart) {
    c.done = true;
    return;
  }
  c.last_state = c.state;
  // The kubelet restarts the first crash at once, then backs off 10 s, 20 s, ... up to 5 min; a
  // run longer than twice the longest back-off starts the count again.
  const auto now = std::chrono::steady_clock::now();
  if (now - c.started_steady > 2 * shared_->options.backoff_max) c.failures = 0;
  c.retry = now + delay(c.failures);
  ++c.failures;
}

void PodWorker::step(ContainerRun& c, const Json& pod) {
  if (c.pid > 0) {
    reap(c);
    if (c.pid > 0) probe(c);
    return;
  }
  if (c.done) return;
  const auto now = std::chrono::steady_clock::now();
  if (c.retry && now < *c.retry) {
    if (c.started) {
      const std::string shown = go_duration(delay(c.failures - 1));
      c.state = Json{
          {"waiting",
           {{"reason", "CrashLoopBackOff"},
            {"message", "back-off " + shown + " restarting failed container=" + c.name + " pod=" + pod_label()}}}};
    } else if (c.state.contains("/waiting/reason"_json_pointer) && c.state["waiting"]["reason"] == "ErrImagePull") {
      c.state = Json{{"waiting",
                      {{"reason", "ImagePullBackOff"},
                       {"message", "Back-off pulling image \"" + str(c.spec, "image") +
                                       "\": ErrImagePull: " + c.state["waiting"].value("message", "")}}}};
    }
    return;
  }
  start(c, pod);
}

void PodWorker::start(ContainerRun& c, const Json& pod) {
  // The kubelet starts no container before the pod's volumes are set up (nor pulls an image):
  // ContainerCreating.
  if (volumes_->failure()) {
    c.state = Json{{"waiting", {{"reason", "ContainerCreating"}}}};
    return;
  }
  const std::string image = str(c.spec, "image");
  if (!c.image) {
    node::ResolvedImage resolved;
    std::string error;
    const node::Lookup found = shared_->images->lookup(image, &resolved, &error);
    if (found != node::Lookup::Found) {
      back_off(c, "ErrImagePull", error.empty() ? "image " + image + " is not on this node" : error);
      return;
    }
    c.image = std::move(resolved);
  }
  fs::path rootfs;
  try {
    rootfs = shared_->images->rootfs(*c.image);
  } catch (const std::exception& e) {
    back_off(c, "ErrImagePull", e.what());
    return;
  }
  const Json spec = pod.value("spec", Json::object());
  const Json pod_security = spec.value("securityContext", Json::object());
  const Json security = c.spec.value("securityContext", Json::object());
  auto pick = [&](const char* key) {
    return integer(security, key) ? integer(security, key) : integer(pod_security, key);
  };
  // The user: runAsUser/runAsGroup, else the image's User ("uid", "name", "uid:gid", ...).
  std::optional<std::uint32_t> uid, gid;
  std::string user_name;
  if (auto u = pick("runAsUser")) uid = static_cast<std::uint32_t>(*u);
  if (auto g = pick("runAsGroup")) gid = static_cast<std::uint32_t>(*g);
  const std::string image_user = c.image->manifest.config.user;
  if (!uid && !image_user.empty()) {
    const auto colon = image_user.find(':');
    const std::string u = image_user.substr(0, colon);
    std::optional<std::uint32_t> primary;
    if (numeric(u)) uid = static_cast<std::uint32_t>(std::stoul(u));
    else {
      user_name = u;
      uid = lookup_id(rootfs, "/etc/passwd", u, &primary);
    }
    if (!gid && colon != std::string::npos) {
      const std::string g = image_user.substr(colon + 1);
      gid = numeric(g) ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(std::stoul(g)))
                       : lookup_id(rootfs, "/etc/group", g);
    }
    if (!gid) gid = primary;
  }
  const bool non_root = security.contains("runAsNonRoot") ? security.value("runAsNonRoot", false)
                                                          : pod_security.value("runAsNonRoot", false);
  if (non_root) {
    std::string refusal;
    if (pick("runAsUser") && uid.value_or(0) == 0) refusal = "container's runAsUser breaks non-root policy";
    else if (!pick("runAsUser") && !user_name.empty()) {
      refusal = "container has runAsNonRoot and image has non-numeric user (" + user_name +
                "), cannot verify user is non-root";
    } else if (uid.value_or(0) == 0) refusal = "container has runAsNonRoot and image will run as root";
    if (!refusal.empty()) {
      back_off(c, "CreateContainerConfigError", refusal + " (pod: \"" + pod_label() + "\", container: " + c.name + ")");
      return;
    }
  }
  if (shared_->isolate && !network_ && !pod.value("/spec/hostNetwork"_json_pointer, false)) {
    try {
      network_ = std::make_unique<PodNetwork>(shared_->options.service_host, shared_->options.service_port);
    } catch (const std::exception& e) {
      back_off(c, "ContainerCreating", std::string("failed to create pod sandbox: ") + e.what());
      return;
    }
  }
  std::vector<std::pair<std::string, std::string>> env;
  std::vector<std::string> argv;
  try {
    const auto lookup = object_lookup();
    Json with_status = pod;
    with_status["status"]["podIP"] = pod_ip();
    with_status["status"]["hostIP"] = host_ip();
    if (str(with_status["spec"], "nodeName").empty()) with_status["spec"]["nodeName"] = shared_->options.node_name;
    env = node::container_env(
        with_status, c.spec, c.image->manifest.config,
        node::kubernetes_service_env(shared_->options.service_host, shared_->options.service_port), lookup);
    argv = node::container_command(c.spec, c.image->manifest.config, env);
  } catch (const std::exception& e) {
    back_off(c, "CreateContainerConfigError", e.what());
    return;
  }
  // The kubelet's host name: spec.hostname, else the pod's name cut to a DNS label (63, no
  // trailing '-' or '.'). Leader election's identity and logs read it.
  std::string hostname = pod.value("/spec/hostname"_json_pointer, std::string());
  if (hostname.empty()) {
    hostname = name_.substr(0, 63);
    while (!hostname.empty() && (hostname.back() == '-' || hostname.back() == '.')) hostname.pop_back();
  }
  if (std::none_of(env.begin(), env.end(), [](const auto& e) { return e.first == "HOSTNAME"; })) {
    env.emplace_back("HOSTNAME", hostname);
  }
  LaunchSpec launch_spec;
  launch_spec.rootfs = rootfs;
  const std::string id = random_id();
  launch_spec.container_dir = shared_->options.state_dir / "containers" / id;
  launch_spec.argv = argv;
  for (const auto& [k, v] : env) launch_spec.env.push_back(k + "=" + v);
  launch_spec.working_dir = str(c.spec, "workingDir");
  if (launch_spec.working_dir.empty()) launch_spec.working_dir = c.image->manifest.config.working_dir;
  if (launch_spec.working_dir.empty()) launch_spec.working_dir = "/";
  launch_spec.uid = uid.value_or(0);
  launch_spec.gid = gid.value_or(0);
  launch_spec.read_only = security.value("readOnlyRootFilesystem", false);
  launch_spec.isolate = shared_->isolate;
  if (network_) launch_spec.netns_fd = network_->netns_fd();
  launch_spec.hostname = hostname;
  try {
    launch_spec.mounts = volumes_->mounts(c.spec);
  } catch (const std::exception& e) {
    back_off(c, "CreateContainerConfigError", e.what());
    return;
  }
  auto launched = launch(launch_spec);
  if (launched.index() == 1) {
    back_off(c, "CreateContainerError", std::get<1>(launched));
    return;
  }
  const Launched& l = std::get<0>(launched);
  std::error_code ec;
  fs::create_directories(c.log_dir, ec);
  const int run_number = c.started ? c.restart_count + 1 : 0;
  c.pump = std::make_unique<LogPump>(l.stdout_fd, l.stderr_fd, c.log_dir / (std::to_string(run_number) + ".log"));
  if (c.started) ++c.restart_count;
  c.started = true;
  c.pid = l.pid;
  c.container_id = id;
  c.started_at = now_text();
  c.started_steady = std::chrono::steady_clock::now();
  c.retry.reset();
  c.state = Json{{"running", {{"startedAt", c.started_at}}}};
  c.kill_at.reset();
  const auto now = std::chrono::steady_clock::now();
  for (auto [run, key] : {std::pair{&c.startup, "startupProbe"}, std::pair{&c.readiness, "readinessProbe"},
                          std::pair{&c.liveness, "livenessProbe"}}) {
    const Json probe_spec = c.spec.value(key, Json());
    *run = ProbeRun{};
    if (!probe_supported(probe_spec)) continue;
    run->spec = probe_spec;
    run->timing = probe_timing(probe_spec);
    run->next = now + run->timing.initial_delay;
  }
  c.has_started = c.startup.spec.is_null();
  c.ready = c.has_started && c.readiness.spec.is_null();
}

// The kubelet's prober: startup first (liveness and readiness wait for it), then readiness (the
// container's `ready`) and liveness; a failed startup or liveness probe kills the container
// (SIGTERM, SIGKILL after the grace period) and the restart policy decides what comes next.
void PodWorker::probe(ContainerRun& c) {
  const auto now = std::chrono::steady_clock::now();
  if (c.kill_at) {
    if (now >= *c.kill_at) signal(c, SIGKILL);
    return;
  }
  // One attempt's result into the thresholds; true when the probe's result changed.
  auto tick = [&](ProbeRun& p) {
    if (p.spec.is_null()) return false;
    if (p.pending.valid()) {
      if (p.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return false;
      const bool ok = p.pending.get();
      p.successes = ok ? p.successes + 1 : 0;
      p.failures = ok ? 0 : p.failures + 1;
      const bool before = p.result;
      if (p.successes >= p.timing.success_threshold) p.result = true;
      if (p.failures >= p.timing.failure_threshold) p.result = false;
      return before != p.result || (!ok && p.failures >= p.timing.failure_threshold);
    }
    if (now >= p.next) {
      p.next = now + p.timing.period;
      p.pending = std::async(std::launch::async, run_probe, p.spec, c.spec, pod_ip());
    }
    return false;
  };
  auto kill = [&](const char* which) {
    shared_->log("pod " + namespace_ + "/" + name_ + ": container " + c.name + " failed " + which +
                 " probe, will be restarted");
    const auto grace = integer(pod_.value("spec", Json::object()), "terminationGracePeriodSeconds").value_or(30);
    signal(c, SIGTERM);
    c.kill_at = now + std::chrono::seconds(grace);
    c.ready = false;
  };
  if (!c.has_started) {
    if (tick(c.startup)) {
      if (c.startup.result) c.has_started = true;
      else return kill("startup");
    }
    if (!c.has_started) return;
    c.ready = c.readiness.spec.is_null();
    const auto at = now;
    c.readiness.next = at + c.readiness.timing.initial_delay;
    c.liveness.next = at + c.liveness.timing.initial_delay;
  }
  if (tick(c.readiness)) c.ready = c.readiness.result;
  if (tick(c.liveness) && !c.liveness.result) kill("liveness");
}

void PodWorker::signal(const ContainerRun& c, int signal_number) const {
  // Isolated, the container's PID 1 takes its namespace down with it; a plain process group is
  // signalled whole, so no stray child keeps the log pipes open.
  if (c.pid > 0) ::kill(shared_->isolate ? c.pid : -c.pid, signal_number);
}

// SIGTERM, up to `grace`, then SIGKILL; the lock is not held while waiting (pods/log reads go on).
void PodWorker::terminate_all(std::chrono::milliseconds grace) {
  {
    std::lock_guard lock(mutex_);
    for (auto& c : containers_) signal(c, grace.count() > 0 ? SIGTERM : SIGKILL);
  }
  const auto deadline = std::chrono::steady_clock::now() + grace;
  bool killed = grace.count() == 0;
  for (;;) {
    bool running = false;
    {
      std::lock_guard lock(mutex_);
      for (auto& c : containers_) {
        if (c.pid > 0) reap(c);
        running = running || c.pid > 0;
      }
      if (running && !killed && std::chrono::steady_clock::now() >= deadline) {
        for (auto& c : containers_) signal(c, SIGKILL);
        killed = true;
      }
    }
    if (!running) break;
    std::this_thread::sleep_for(20ms);
  }
  std::lock_guard lock(mutex_);
  for (auto& c : containers_) {
    c.done = true;
    // A container that never ran, as the kubelet reports it when its pod goes.
    if (c.state.contains("waiting")) {
      c.state = Json{{"terminated",
                      {{"exitCode", 137},
                       {"reason", "ContainerStatusUnknown"},
                       {"message", "The container could not be located when the pod was terminated"}}}};
    }
  }
}

// Drops the finalizer; when the object was being deleted that removes it.
void PodWorker::release() {
  for (int attempt = 0; attempt < 10; ++attempt) {
    try {
      Json pod = shared_->cluster->get(shared_->pod_kind, {namespace_, name_});
      if (str(pod["metadata"], "uid") != uid_) return;
      Json finalizers = Json::array();
      for (const Json& f : pod.value("/metadata/finalizers"_json_pointer, Json::array())) {
        if (f != node::node_agent_finalizer) finalizers.push_back(f);
      }
      pod["metadata"]["finalizers"] = finalizers;
      shared_->cluster->update(shared_->pod_kind, pod);
      return;
    } catch (const ApiError& e) {
      if (e.status().code == 404) return;
    } catch (const std::exception&) {
      return;
    }
  }
}

bool PodWorker::write_status(const Json& pod) {
  const std::string now = now_text();
  const Json spec = pod.value("spec", Json::object());
  const std::string policy = str(spec, "restartPolicy");
  Json statuses = Json::array();
  int waiting = 0, running = 0, succeeded = 0, failed = 0;
  std::vector<std::string> unready;
  std::pair<std::string, std::string> ips;  // pod, host
  {
    std::lock_guard lock(mutex_);
    // A pod whose own network is not made yet has no addresses yet, as with the kubelet.
    if (network_ || !shared_->isolate || pod.value("/spec/hostNetwork"_json_pointer, false))
      ips = {pod_ip(), host_ip()};
    for (const auto& c : containers_) {
      const bool is_running = c.state.contains("running");
      const bool ready = is_running && c.ready;
      Json s = {{"name", c.name},
                {"state", c.state},
                {"lastState", c.last_state},
                {"ready", ready},
                {"restartCount", c.restart_count}};
      s["image"] = c.image ? c.image->reference.str() : str(c.spec, "image");
      s["imageID"] = c.image && c.started ? c.image->image_id() : "";
      if (!c.container_id.empty()) s["containerID"] = "rrgen://" + c.container_id;
      s["started"] = is_running && c.has_started;
      statuses.push_back(std::move(s));
      if (!ready) unready.push_back(c.name);
      if (is_running) ++running;
      else if (c.state.contains("terminated")) {
        (c.state["terminated"].value("exitCode", 1) == 0 ? succeeded : failed)++;
      } else if (!c.last_state.empty()) {
        ++running;  // restarting after a crash: the kubelet still counts the pod Running
      } else {
        ++waiting;
      }
    }
  }
  const int total = static_cast<int>(statuses.size());
  std::string phase;
  if (waiting > 0) phase = "Pending";
  else if (running > 0) phase = "Running";
  else if (succeeded + failed == total) {
    if (policy == "Always" || policy.empty()) phase = "Running";
    else if (policy == "OnFailure") phase = failed > 0 ? "Running" : "Succeeded";
    else phase = failed > 0 ? "Failed" : "Succeeded";
  } else phase = "Pending";
  const bool ready = unready.empty() && phase == "Running";
  std::string unready_message;
  if (!unready.empty()) {
    unready_message = "containers with unready status: [";
    for (std::size_t i = 0; i < unready.size(); ++i) unready_message += (i ? " " : "") + unready[i];
    unready_message += "]";
  }
  const std::string not_ready_reason = phase == "Succeeded" ? "PodCompleted"
                                                            : (phase == "Failed" ? "PodFailed" : "ContainersNotReady");
  const std::string not_ready_message = phase == "Succeeded" ? "" : unready_message;
  Json status = {
      {"phase", phase},
      {"conditions",
       Json::array(
           {condition("PodReadyToStartContainers", phase != "Succeeded" && phase != "Failed", now),
            condition("Initialized", true, now, phase == "Succeeded" ? "PodCompleted" : ""),
            condition("Ready", ready, now, ready ? "" : not_ready_reason, ready ? "" : not_ready_message),
            condition("ContainersReady", ready, now, ready ? "" : not_ready_reason, ready ? "" : not_ready_message),
            condition("PodScheduled", true, now)})},
      {"hostIP", ips.second},
      {"hostIPs", Json::array({{{"ip", ips.second}}})},
      {"podIP", ips.first},
      {"podIPs", Json::array({{{"ip", ips.first}}})},
      {"startTime", start_time_},
      {"qosClass", qos_class(spec)},
      {"containerStatuses", statuses}};
  // Transition times stay as they were while a condition's status does not change.
  const Json old = pod.value("status", Json::object());
  for (Json& c : status["conditions"]) {
    for (const Json& o : old.value("conditions", Json::array())) {
      if (o.value("type", "") == c["type"] && o.value("status", "") == c["status"])
        c["lastTransitionTime"] = o["lastTransitionTime"];
    }
  }
  if (ips.first.empty()) {
    for (const char* key : {"hostIP", "hostIPs", "podIP", "podIPs"}) status.erase(key);
  }
  if (old.contains("qosClass")) status["qosClass"] = old["qosClass"];
  if (old == status) return false;
  Json updated = pod;
  updated["status"] = status;
  for (int attempt = 0; attempt < 5; ++attempt) {
    try {
      shared_->cluster->update_status(shared_->pod_kind, updated);
      return true;
    } catch (const ApiError& e) {
      if (e.status().code != 409) throw;
      updated = shared_->cluster->get(shared_->pod_kind, {namespace_, name_});
      if (str(updated["metadata"], "uid") != uid_) return false;
      updated["status"] = status;
    }
  }
  return false;
}

std::optional<fs::path> PodWorker::log_file(const std::string& container, bool previous, std::string* error) const {
  std::lock_guard lock(mutex_);
  for (const auto& c : containers_) {
    if (c.name != container) continue;
    if (!c.started) {
      if (error)
        *error = "container \"" + container + "\" in pod \"" + name_ + "\" is waiting to start: " +
                 c.state.value("/waiting/reason"_json_pointer, std::string("ContainerCreating"));
      return std::nullopt;
    }
    const bool restarting = !c.last_state.empty() && c.pid < 0;
    int run = c.restart_count;
    if (previous) {
      // While waiting to restart, the crashed run is the current one's predecessor in the kubelet's eyes.
      run = restarting ? c.restart_count : c.restart_count - 1;
      if (run < 0 || c.last_state.empty()) {
        if (error) *error = "previous terminated container \"" + container + "\" in pod \"" + name_ + "\" not found";
        return std::nullopt;
      }
    }
    return c.log_dir / (std::to_string(run) + ".log");
  }
  if (error) *error = "container " + container + " is not valid for pod " + name_;
  return std::nullopt;
}

bool PodWorker::container_running(const std::string& container) const {
  std::lock_guard lock(mutex_);
  for (const auto& c : containers_) {
    if (c.name == container) return c.pid > 0;
  }
  return false;
}

std::vector<std::string> PodWorker::container_names() const {
  std::vector<std::string> names;
  for (const auto& c : containers_) names.push_back(c.name);
  return names;
}

}  // namespace rr::node_detail
