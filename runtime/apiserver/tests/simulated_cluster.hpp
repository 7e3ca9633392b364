// A cluster with the workload kinds registered and a WorkloadSimulator over it, for the
// simulator's tests: waits with a deadline, and a recording of the pod events in their order.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/stateful_set.hpp"
#include "k8s/batch/v1/job.hpp"
#include "k8s/core/v1/persistent_volume_claim.hpp"
#include "k8s/core/v1/pod.hpp"
#include "rr/apiserver/workload_simulator.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_test {

inline const KindInfo deployment_kind = kind_info_of<k8s::apps::v1::Deployment>();
inline const KindInfo stateful_set_kind = kind_info_of<k8s::apps::v1::StatefulSet>();
inline const KindInfo job_kind = kind_info_of<k8s::batch::v1::Job>();
inline const KindInfo pod_kind = kind_info_of<k8s::core::v1::Pod>();
inline const KindInfo claim_kind = kind_info_of<k8s::core::v1::PersistentVolumeClaim>();

template <Object T>
void register_once(Cluster& cluster) {
  if (!cluster.find_kind(kind_info_of<T>().gvk)) cluster.register_kind<T>();
}

// The kinds registered besides Deployment, StatefulSet and Job.
struct WithKinds {
  bool pods = true;
  bool claims = true;
};

struct SimulatedCluster {
  explicit SimulatedCluster(WithKinds kinds = {}) : cluster(std::make_shared<Cluster>()) {
    register_once<k8s::apps::v1::Deployment>(*cluster);
    register_once<k8s::apps::v1::StatefulSet>(*cluster);
    register_once<k8s::batch::v1::Job>(*cluster);
    if (kinds.pods) register_once<k8s::core::v1::Pod>(*cluster);
    if (kinds.claims) register_once<k8s::core::v1::PersistentVolumeClaim>(*cluster);
    if (kinds.pods) pod_events = cluster->watch(pod_kind, {});  // before the simulator writes any
    simulator = std::make_unique<WorkloadSimulator>(cluster);
  }

  Json get(const KindInfo& kind, const std::string& name) const { return cluster->get(kind, {"default", name}); }
  bool exists(const KindInfo& kind, const std::string& name) const {
    try {
      get(kind, name);
      return true;
    } catch (const ApiError&) {
      return false;
    }
  }
  // The names of the objects of `kind`, sorted, space-separated.
  std::string names(const KindInfo& kind) const {
    std::string out;
    const Json list = cluster->list(kind, {.namespace_ = "default"});
    for (const Json& item : list["items"]) {
      out += (out.empty() ? "" : " ") + item["metadata"]["name"].get<std::string>();
    }
    return out;
  }

  // "ADDED web-0", "MODIFIED web-0 ready", "DELETED web-2": the pod events so far, in order.
  std::vector<std::string> pod_history() {
    while (auto event = pod_events->next(std::chrono::milliseconds(0))) {
      const Json& pod = event->object;
      std::string line = event->type == WatchEventType::Added      ? "ADDED "
                         : event->type == WatchEventType::Modified ? "MODIFIED "
                                                                   : "DELETED ";
      line += pod["metadata"].value("name", "");
      if (pod.contains("status") && pod["status"].value("phase", "") == "Running") line += " ready";
      history.push_back(line);
    }
    return history;
  }

  // Waits for the simulator to leave its writes alone for `quiet` (it has settled).
  bool settled(std::chrono::milliseconds quiet = std::chrono::milliseconds(300)) const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    long long seen = simulator->updates();
    auto since = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      const long long now = simulator->updates();
      if (now != seen) {
        seen = now;
        since = std::chrono::steady_clock::now();
      } else if (std::chrono::steady_clock::now() - since >= quiet) {
        return true;
      }
    }
    return false;
  }

  std::shared_ptr<Cluster> cluster;
  std::unique_ptr<Watch> pod_events;
  std::vector<std::string> history;
  std::unique_ptr<WorkloadSimulator> simulator;  // last: stops first
};

// True once `done` holds, checked every 10 ms for at most `timeout`.
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

}  // namespace rr::apiserver_test
