// The watch loop: one thread per watched kind turns events into the key of the object to settle
// (a pod's event into its owner's key), one worker settles the queued keys one at a time.
#include "rr/apiserver/workload_simulator.hpp"

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "simulated_pod.hpp"
#include "simulation.hpp"

namespace rr {

namespace {

using apiserver_detail::SimulatedKinds;
using apiserver_detail::Simulation;

enum class Workload { Deployment, ReplicaSet, StatefulSet, Job, Pod };  // Pod: a bare pod

struct Request {
  Workload workload;
  ObjectKey key;
  auto operator<=>(const Request&) const = default;
};

bool has_controller(const Json& pod) {
  const Json refs = pod.value("/metadata/ownerReferences"_json_pointer, Json::array());
  if (!refs.is_array()) return false;
  for (const Json& ref : refs) {
    if (ref.is_object() && ref.value("controller", false)) return true;
  }
  return false;
}

// The workload a pod (or a ReplicaSet) belongs to, by its controller ownerReference.
std::optional<Request> owner_of_pod(const Json& pod) {
  const Json refs = pod.contains("/metadata/ownerReferences"_json_pointer)
                        ? pod.at("/metadata/ownerReferences"_json_pointer)
                        : Json::array();
  if (!refs.is_array()) return std::nullopt;
  for (const Json& ref : refs) {
    if (!ref.is_object() || !ref.value("controller", false)) continue;
    const std::string api_version = ref.value("apiVersion", ""), kind = ref.value("kind", "");
    const ObjectKey owner{key_of(pod).namespace_, ref.value("name", "")};
    if (api_version == "apps/v1" && kind == "StatefulSet") return Request{Workload::StatefulSet, owner};
    if (api_version == "apps/v1" && kind == "ReplicaSet") return Request{Workload::ReplicaSet, owner};
    if (api_version == "apps/v1" && kind == "Deployment") return Request{Workload::Deployment, owner};
    if (api_version == "batch/v1" && kind == "Job") return Request{Workload::Job, owner};
  }
  return std::nullopt;
}

}  // namespace

struct WorkloadSimulator::State {
  std::shared_ptr<Cluster> cluster;
  SimulatedKinds kinds;
  std::function<bool(const Json&)> runs_on_node;
  std::atomic<long long> writes{0};

  std::mutex mutex;
  std::condition_variable_any wake;
  std::deque<Request> queue;
  std::set<Request> queued;  // a key waits once however many events named it

  std::vector<std::unique_ptr<Watch>> watches;
  std::vector<std::jthread> threads;  // last: joined before the members they use go

  void enqueue(Request request) {
    {
      std::lock_guard lock(mutex);
      if (!queued.insert(request).second) return;
      queue.push_back(std::move(request));
    }
    wake.notify_one();
  }

  void watch(const KindInfo& kind, std::function<void(const WatchEvent&)> on_event) {
    watches.push_back(cluster->watch(kind, ListOptions{}));
    threads.emplace_back([watch = watches.back().get(), on_event = std::move(on_event)](std::stop_token stop) {
      while (!stop.stop_requested()) {
        auto event = watch->next(std::chrono::milliseconds(200));
        if (event) on_event(*event);
        else if (watch->stopped()) return;
      }
    });
  }

  void watch_workload(const std::optional<KindInfo>& kind, Workload workload) {
    if (!kind) return;
    watch(*kind, [this, workload](const WatchEvent& event) {
      // A deleted workload's pods and claims go with it through the garbage collector.
      if (event.type == WatchEventType::Added || event.type == WatchEventType::Modified) {
        enqueue({workload, key_of(event.object)});
      }
    });
  }

  // Whether the kind a pod's owner is of is simulated (registered as the simulator started).
  bool watches_kind(Workload workload) const {
    switch (workload) {
      case Workload::ReplicaSet: return kinds.replica_set.has_value();
      case Workload::StatefulSet: return kinds.stateful_set.has_value();
      case Workload::Job: return kinds.job.has_value();
      case Workload::Deployment:
      case Workload::Pod: break;
    }
    return false;
  }

  void settle(const Request& request) {
    Simulation sim(*cluster, kinds, writes, runs_on_node);
    try {
      switch (request.workload) {
        case Workload::Deployment: return apiserver_detail::simulate_deployment(sim, request.key);
        case Workload::ReplicaSet: return apiserver_detail::simulate_replica_set(sim, request.key);
        case Workload::StatefulSet: return apiserver_detail::simulate_stateful_set(sim, request.key);
        case Workload::Job: return apiserver_detail::simulate_job(sim, request.key);
        case Workload::Pod: return settle_bare_pod(sim, request.key);
      }
    } catch (const std::exception&) {
      // A newer write won (409), the object went away (404) or a write was refused: whatever
      // changes next brings its own event; retrying now would only repeat the failure.
    }
  }

  // A bare pod leaves Pending as if a node ran it, unless a node agent does run it.
  void settle_bare_pod(Simulation& sim, const ObjectKey& key) {
    const Json pod = cluster->get(*kinds.pod, key);
    if (has_controller(pod) || (runs_on_node && runs_on_node(pod))) return;
    const std::string phase = pod.value("/status/phase"_json_pointer, std::string());
    if (!phase.empty() && phase != "Pending") return;  // reported by someone else
    apiserver_detail::settle_pod(sim, pod, apiserver_detail::PodOutcome::Running);
  }

  void work(std::stop_token stop) {
    for (;;) {
      Request request;
      {
        std::unique_lock lock(mutex);
        if (!wake.wait(lock, stop, [this] { return !queue.empty(); })) return;
        request = std::move(queue.front());
        queue.pop_front();
        queued.erase(request);
      }
      settle(request);
    }
  }
};

WorkloadSimulator::WorkloadSimulator(std::shared_ptr<Cluster> cluster, std::function<bool(const Json&)> runs_on_node)
    : state_(std::make_unique<State>()) {
  State& state = *state_;
  state.cluster = std::move(cluster);
  state.runs_on_node = std::move(runs_on_node);
  state.kinds = apiserver_detail::find_simulated_kinds(*state.cluster);
  state.watch_workload(state.kinds.deployment, Workload::Deployment);
  if (state.kinds.replica_set) {
    // A set's change settles it and its Deployment (whose status sums the sets'); a set that went
    // has its Deployment settled (it makes it again).
    state.watch(*state.kinds.replica_set, [&state](const WatchEvent& event) {
      if (event.type == WatchEventType::Error || event.type == WatchEventType::Bookmark) return;
      if (event.type != WatchEventType::Deleted) state.enqueue({Workload::ReplicaSet, key_of(event.object)});
      auto owner = owner_of_pod(event.object);
      if (owner && owner->workload == Workload::Deployment && state.kinds.deployment) state.enqueue(std::move(*owner));
    });
  }
  state.watch_workload(state.kinds.stateful_set, Workload::StatefulSet);
  state.watch_workload(state.kinds.job, Workload::Job);
  if (state.kinds.pod) {
    // A pod that changed or went (deleted by hand, say) has its owner settled again; a bare pod
    // is settled itself.
    state.watch(*state.kinds.pod, [&state](const WatchEvent& event) {
      if (event.type == WatchEventType::Error || event.type == WatchEventType::Bookmark) return;
      if (!has_controller(event.object)) {
        if (event.type != WatchEventType::Deleted) state.enqueue({Workload::Pod, key_of(event.object)});
        return;
      }
      auto owner = owner_of_pod(event.object);
      if (owner && state.watches_kind(owner->workload)) state.enqueue(std::move(*owner));
    });
  }
  state.threads.emplace_back([&state](std::stop_token stop) { state.work(stop); });
}

WorkloadSimulator::~WorkloadSimulator() {
  for (auto& thread : state_->threads) thread.request_stop();
  for (auto& watch : state_->watches) watch->stop();
}

long long WorkloadSimulator::updates() const { return state_->writes.load(); }

}  // namespace rr
