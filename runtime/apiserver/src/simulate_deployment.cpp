// Deployments of images no node runs: every replica of the current generation reported ready and
// available as soon as it is written (as KWOK's fake nodes make it look), with no ReplicaSets or
// Pods. Those the node agent runs get the deployment controller's ReplicaSets (deployment_rollout.cpp).
#include "simulation.hpp"

namespace rr::apiserver_detail {

namespace {

// The status the deployment controller reports once every replica of the current generation is
// available. Nullopt when the stored status already says so (no write, no event loop).
std::optional<Json> settled_status(const Json& deployment, const std::string& now) {
  const std::int64_t replicas = int_at(deployment, "/spec/replicas"_json_pointer, 1);
  const std::int64_t generation = int_at(deployment, "/metadata/generation"_json_pointer, 1);
  if (is_terminating(deployment)) return std::nullopt;
  // With no replicas the status carries no availableReplicas: absent reads as settled then.
  if (int_at(deployment, "/status/observedGeneration"_json_pointer, -1) == generation &&
      int_at(deployment, "/status/availableReplicas"_json_pointer, replicas == 0 ? 0 : -1) == replicas) {
    return std::nullopt;
  }
  auto condition = [&](const char* type, const char* reason, const char* message) {
    return Json{{"type", type},       {"status", "True"},      {"reason", reason},
                {"message", message}, {"lastUpdateTime", now}, {"lastTransitionTime", now}};
  };
  Json status = {
      {"observedGeneration", generation},
      {"replicas", replicas},
      {"updatedReplicas", replicas},
      {"readyReplicas", replicas},
      {"availableReplicas", replicas},
      {"conditions",
       Json::array({condition("Available", "MinimumReplicasAvailable", "Deployment has minimum availability."),
                    condition("Progressing", "NewReplicaSetAvailable", "ReplicaSet has successfully progressed.")})}};
  if (replicas == 0) {
    status.erase("readyReplicas");
    status.erase("availableReplicas");
  }
  return status;
}

}  // namespace

void simulate_deployment(Simulation& sim, const ObjectKey& key) {
  const KindInfo& kind = *sim.kinds().deployment;
  Json deployment = sim.cluster().get(kind, key);
  if (roll_out_deployment(sim, deployment)) return;
  const auto status = settled_status(deployment, sim.now());
  if (!status) return;
  deployment["status"] = *status;
  sim.update_status(kind, deployment);
}

}  // namespace rr::apiserver_detail
