#include "rr/node/node_agent.hpp"

#include <unistd.h>

#include <map>
#include <stdexcept>
#include <thread>

#include "pod_worker.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::node {

namespace fs = std::filesystem;
using node_detail::PodWorker;

struct NodeAgent::State {
  std::shared_ptr<node_detail::AgentShared> shared;
  bool own_state_dir = false;
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<PodWorker>> workers;  // by uid
  std::unique_ptr<Watch> watch;
  std::jthread watcher;
  bool stopped = false;

  bool runs(const Json& pod) const {
    // As a kubelet: whoever owns the pod (a ReplicaSet, a StatefulSet, a Job, an operator's own
    // kind), it runs when the node holds its images; the workload simulator leaves such pods alone.
    const Json spec = pod.value("spec", Json::object());
    if (!spec.is_object() || spec.contains("initContainers")) return false;
    const std::string node = spec.value("nodeName", "");
    if (!node.empty() && node != shared->options.node_name) return false;
    const Json containers = spec.value("containers", Json::array());
    if (!containers.is_array() || containers.empty()) return false;
    for (const Json& c : containers) {
      if (!c.is_object() || !shared->images->holds_repository(c.value("image", ""))) return false;
    }
    return true;
  }

  void on_event(const WatchEvent& event) {
    if (event.type != WatchEventType::Added && event.type != WatchEventType::Modified &&
        event.type != WatchEventType::Deleted) {
      return;
    }
    const std::string uid = event.object.value("/metadata/uid"_json_pointer, std::string());
    std::lock_guard lock(mutex);
    if (stopped) return;
    // Finished workers go (their pod is gone or was released).
    for (auto it = workers.begin(); it != workers.end();) {
      it = it->second->finished() && it->first != uid ? workers.erase(it) : std::next(it);
    }
    auto it = workers.find(uid);
    if (event.type == WatchEventType::Deleted) {
      if (it != workers.end()) it->second->deleted();
      return;
    }
    if (it != workers.end() && !it->second->finished()) {
      it->second->update(event.object);
      return;
    }
    if (it != workers.end()) workers.erase(it);  // it gave up on the pod (or released it): decide again
    const std::string phase = event.object.value("/status/phase"_json_pointer, std::string());
    if (phase == "Succeeded" || phase == "Failed") return;  // a finished pod is not run again
    if (event.object.contains("/metadata/deletionTimestamp"_json_pointer) || !runs(event.object)) return;
    workers.emplace(uid, std::make_unique<PodWorker>(shared, event.object));
  }
};

NodeAgent::NodeAgent(std::shared_ptr<Cluster> cluster, NodeAgentOptions options) : state_(std::make_shared<State>()) {
  if (!cluster) throw std::invalid_argument("NodeAgent: no cluster");
  auto shared = std::make_shared<node_detail::AgentShared>();
  shared->cluster = std::move(cluster);
  auto pod_kind = shared->cluster->find_kind({"", "v1", "Pod"});
  if (!pod_kind) throw std::invalid_argument("NodeAgent: the cluster does not serve v1 Pods");
  shared->pod_kind = *pod_kind;
  shared->config_map_kind = shared->cluster->find_kind({"", "v1", "ConfigMap"});
  shared->secret_kind = shared->cluster->find_kind({"", "v1", "Secret"});
  shared->service_account_kind = shared->cluster->find_kind({"", "v1", "ServiceAccount"});
  shared->event_kind = shared->cluster->find_kind({"", "v1", "Event"});
  if (options.state_dir.empty()) {
    std::string pattern = (fs::temp_directory_path() / "rrgen-node-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("NodeAgent: cannot make a state directory");
    options.state_dir = pattern;
    state_->own_state_dir = true;
  }
  fs::create_directories(options.state_dir);
  shared->isolate = ::geteuid() == 0 && options.namespaces;
  shared->options = std::move(options);
  shared->images = std::make_unique<ImageStore>(shared->options.image_dirs, shared->options.state_dir / "images");
  if (!shared->isolate) {
    shared->log(std::string(::geteuid() == 0 ? "namespaces off" : "not root") +
                ": containers run as plain processes through their image's loader, without namespaces or chroot,"
                " share the host's network (pod IP " +
                shared->options.host_ip + "), and get their volumes written under the state directory but not mounted");
  }
  state_->shared = shared;
  state_->watch = shared->cluster->watch(shared->pod_kind, ListOptions{});
  state_->watcher = std::jthread([state = state_.get()](std::stop_token stop) {
    while (!stop.stop_requested()) {
      auto event = state->watch->next(std::chrono::milliseconds(100));
      if (event) {
        state->on_event(*event);
      } else if (state->watch->stopped() && !stop.stop_requested()) {
        // Ended under us (expired, say): watch again from the current state, which comes as
        // ADDED events the workers take as updates. A deleted pod waits on our finalizer, so
        // its deletion is seen as the new state.
        try {
          state->watch = state->shared->cluster->watch(state->shared->pod_kind, ListOptions{});
        } catch (const std::exception& e) {
          state->shared->log(std::string("cannot watch pods again: ") + e.what());
          std::this_thread::sleep_for(std::chrono::seconds(1));
        }
      }
    }
  });
}

NodeAgent::~NodeAgent() {
  stop();
  if (state_->own_state_dir) {
    std::error_code ec;
    fs::remove_all(state_->shared->options.state_dir, ec);
  }
}

void NodeAgent::stop() {
  {
    std::lock_guard lock(state_->mutex);
    if (state_->stopped) return;
    state_->stopped = true;
  }
  state_->watcher.request_stop();  // the watcher wakes at least every 100 ms
  if (state_->watcher.joinable()) state_->watcher.join();
  state_->watch->stop();
  std::map<std::string, std::unique_ptr<PodWorker>> workers;
  {
    std::lock_guard lock(state_->mutex);
    workers.swap(state_->workers);
  }
  for (auto& [uid, worker] : workers) worker->shutdown();
  workers.clear();  // each joins its thread once its containers are killed
}

const std::string& NodeAgent::node_name() const { return state_->shared->options.node_name; }

bool NodeAgent::runs(const Json& pod) const { return state_->runs(pod); }

std::function<bool(const Json&)> NodeAgent::predicate() const {
  std::weak_ptr<State> weak = state_;
  return [weak](const Json& pod) {
    auto state = weak.lock();
    return state && state->runs(pod);
  };
}

std::unique_ptr<PodLogStream> NodeAgent::open(const Json& pod, const PodLogOptions& options) {
  const std::string uid = pod.value("/metadata/uid"_json_pointer, std::string());
  std::lock_guard lock(state_->mutex);
  auto it = state_->workers.find(uid);
  if (it == state_->workers.end() || it->second->finished()) return nullptr;  // not ours, or its pod went
  PodWorker& worker = *it->second;
  std::string container = options.container;
  const auto names = worker.container_names();
  if (container.empty()) {
    if (names.size() != 1) {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : " ") + n;
      throw std::invalid_argument("a container name must be specified for pod " +
                                  pod.value("/metadata/name"_json_pointer, std::string()) + ", choose one of: [" +
                                  list + "]");
    }
    container = names.front();
  }
  std::string error;
  auto file = worker.log_file(container, options.previous, &error);
  if (!file) throw std::invalid_argument(error);
  std::weak_ptr<State> weak = state_;
  const bool previous = options.previous;
  return node_detail::open_log_file(*file, options, [weak, uid, container, previous] {
    if (previous) return false;
    auto state = weak.lock();
    if (!state) return false;
    std::lock_guard state_lock(state->mutex);
    auto w = state->workers.find(uid);
    return w != state->workers.end() && w->second->container_running(container);
  });
}

}  // namespace rr::node
