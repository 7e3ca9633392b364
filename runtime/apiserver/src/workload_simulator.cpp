#include "rr/apiserver/workload_simulator.hpp"

#include <atomic>
#include <thread>

#include "rr/cluster/cluster.hpp"
#include "rr/core/time.hpp"

namespace rr {

namespace {

const GroupVersionKind deployment_gvk{"apps", "v1", "Deployment"};

std::int64_t int_at(const Json& object, const Json::json_pointer& at, std::int64_t fallback) {
  return object.contains(at) && object.at(at).is_number_integer() ? object.at(at).get<std::int64_t>() : fallback;
}

// The status the deployment controller reports once every replica of the current generation is
// available. Nullopt when the stored status already says so (no write, no event loop).
std::optional<Json> settled_status(const Json& deployment, const std::string& now) {
  const std::int64_t replicas = int_at(deployment, "/spec/replicas"_json_pointer, 1);
  const std::int64_t generation = int_at(deployment, "/metadata/generation"_json_pointer, 1);
  if (deployment.contains("/metadata/deletionTimestamp"_json_pointer)) return std::nullopt;
  if (int_at(deployment, "/status/observedGeneration"_json_pointer, -1) == generation &&
      int_at(deployment, "/status/availableReplicas"_json_pointer, -1) == replicas) {
    return std::nullopt;
  }
  auto condition = [&](const char* type, const char* reason, const char* message) {
    return Json{{"type", type},        {"status", "True"},          {"reason", reason},
                {"message", message},  {"lastUpdateTime", now},     {"lastTransitionTime", now}};
  };
  Json status = {{"observedGeneration", generation},
                 {"replicas", replicas},
                 {"updatedReplicas", replicas},
                 {"readyReplicas", replicas},
                 {"availableReplicas", replicas},
                 {"conditions",
                  Json::array({condition("Available", "MinimumReplicasAvailable", "Deployment has minimum availability."),
                               condition("Progressing", "NewReplicaSetAvailable",
                                         "ReplicaSet has successfully progressed.")})}};
  if (replicas == 0) {
    status.erase("readyReplicas");
    status.erase("availableReplicas");
  }
  return status;
}

}  // namespace

struct WorkloadSimulator::State {
  std::shared_ptr<Cluster> cluster;
  std::unique_ptr<Watch> watch;
  std::atomic<long long> updates{0};
  std::jthread thread;
};

WorkloadSimulator::WorkloadSimulator(std::shared_ptr<Cluster> cluster) : state_(std::make_unique<State>()) {
  state_->cluster = std::move(cluster);
  const auto kind = state_->cluster->find_kind(deployment_gvk);
  if (!kind) throw std::invalid_argument("WorkloadSimulator: apps/v1 Deployment is not registered");
  state_->watch = state_->cluster->watch(*kind, ListOptions{});
  state_->thread = std::jthread([state = state_.get(), info = *kind](std::stop_token stop) {
    while (!stop.stop_requested()) {
      auto event = state->watch->next(std::chrono::milliseconds(200));
      if (!event) {
        if (state->watch->stopped()) return;
        continue;
      }
      if (event->type != WatchEventType::Added && event->type != WatchEventType::Modified) continue;
      const auto status = settled_status(event->object, Time::from(state->cluster->now()).str());
      if (!status) continue;
      Json updated = event->object;
      updated["status"] = *status;
      try {
        state->cluster->update_status(info, updated);
        ++state->updates;
      } catch (const ApiError&) {
        // A newer write won (409) or the object went away: its own event comes next.
      }
    }
  });
}

WorkloadSimulator::~WorkloadSimulator() {
  state_->thread.request_stop();
  state_->watch->stop();
}

long long WorkloadSimulator::updates() const { return state_->updates.load(); }

}  // namespace rr
