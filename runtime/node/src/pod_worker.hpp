// One pod on the node: its containers' processes, restarts with back-off, and the status the
// kubelet would write, on a thread of its own.
#pragma once
#include <sys/types.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cri_log.hpp"
#include "pod_network.hpp"
#include "probe.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/image_store.hpp"
#include "rr/node/node_agent.hpp"
#include "volumes.hpp"

namespace rr::node_detail {

using SteadyTime = std::chrono::steady_clock::time_point;

// One of a container's probes while it runs: attempts on their own threads, the kubelet's
// thresholds over their results.
struct ProbeRun {
  Json spec;  // null: none (or a kind not run: it counts as success)
  ProbeTiming timing;
  SteadyTime next;
  int successes = 0, failures = 0;
  bool result = false;
  std::future<bool> pending;
};

struct ContainerRun {
  std::string name;
  Json spec;
  std::optional<node::ResolvedImage> image;
  // The state the status reports.
  Json state = Json{{"waiting", {{"reason", "ContainerCreating"}}}};
  Json last_state = Json::object();
  int restart_count = 0;
  std::string container_id;
  bool started = false;  // ever started (the image field shows the resolved name from then on)
  pid_t pid = -1;
  std::unique_ptr<LogPump> pump;
  int failures = 0;                 // back-off steps taken (crashes, pull or create errors)
  std::optional<SteadyTime> retry;  // when the next start may happen
  bool done = false;                // terminated and not to be restarted
  std::string started_at;
  SteadyTime started_steady;
  std::filesystem::path log_dir;
  ProbeRun startup, readiness, liveness;
  bool ready = false;                 // running, started, and its readiness probe passes
  bool has_started = false;           // running and past its startup probe
  std::optional<SteadyTime> kill_at;  // a failed liveness or startup probe: SIGKILL then
};

// Reasons a container waits, as the kubelet names them.
struct Waiting {
  std::string reason, message;
};

struct AgentShared {
  std::shared_ptr<Cluster> cluster;
  node::NodeAgentOptions options;
  std::unique_ptr<node::ImageStore> images;
  KindInfo pod_kind;
  std::optional<KindInfo> config_map_kind, secret_kind, service_account_kind, event_kind;
  bool isolate = true;  // root: namespaces and chroot
  void log(const std::string& line) const;
};

class PodWorker {
 public:
  PodWorker(std::shared_ptr<AgentShared> shared, Json pod);
  ~PodWorker();  // kills what still runs

  void update(Json pod);  // the latest object from the watch
  void deleted();         // the object is gone
  void shutdown();        // the agent stops: SIGKILL, finalizer removed
  bool finished() const { return finished_.load(); }
  const std::string& uid() const { return uid_; }

  // Where a container's logs are (for pods/log): the current run, or the previous one.
  std::optional<std::filesystem::path> log_file(const std::string& container, bool previous, std::string* error) const;
  bool container_running(const std::string& container) const;
  std::vector<std::string> container_names() const;

 private:
  void run(std::stop_token stop);
  void step(ContainerRun& c, const Json& pod);
  void start(ContainerRun& c, const Json& pod);
  void reap(ContainerRun& c);
  void sync_volumes(const Json& pod);  // sets up and refreshes; a new FailedMount is logged and an Event
  void probe(ContainerRun& c);
  void back_off(ContainerRun& c, const std::string& reason, const std::string& message);
  void signal(const ContainerRun& c, int signal_number) const;
  void terminate_all(std::chrono::milliseconds grace);
  bool write_status(const Json& pod);
  void release();  // drops the finalizer (a terminating pod goes with it)
  std::chrono::milliseconds delay(int failures) const;
  std::string pod_label() const;  // "name_namespace(uid)"
  std::string pod_ip() const;     // the pod's network's, else the host's (no namespaces)
  std::string host_ip() const;
  void close_network();  // once no container runs: the veth pair and namespace go
  node::ObjectLookup object_lookup() const;  // ConfigMaps, Secrets, ServiceAccounts of the pod's namespace

  std::shared_ptr<AgentShared> shared_;
  std::string uid_, name_, namespace_;
  mutable std::mutex mutex_;
  Json pod_;
  bool gone_ = false;
  std::string start_time_;
  std::vector<ContainerRun> containers_;
  std::atomic<bool> finished_{false};
  std::atomic<bool> shutdown_{false};
  std::filesystem::path dir_;
  std::unique_ptr<PodNetwork> network_;  // made with the first container, gone once all stopped
  std::unique_ptr<PodVolumes> volumes_;  // under dir_/volumes, removed when the pod goes
  bool told_unmounted_ = false;          // not root: the one log line saying nothing is mounted
  std::jthread thread_;                  // last
};

}  // namespace rr::node_detail
