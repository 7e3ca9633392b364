// ReplicaSets (the replicaset controller): `replicas` active pods made from the template or the
// surplus deleted (not-ready, then newest first), and the status counted from the pods. Pods the
// node agent runs report themselves; any other pod of a simulated set is reported Running.
#include <algorithm>
#include <vector>

#include "replica_set_objects.hpp"
#include "simulated_pod.hpp"

namespace rr::apiserver_detail {

namespace {

bool is_active(const Json& pod) {
  const std::string phase = string_at(pod, "/status/phase"_json_pointer);
  return phase != "Succeeded" && phase != "Failed" && !is_terminating(pod);
}

std::vector<Json> active_pods(Simulation& sim, const Json& replica_set) {
  ListOptions options{.namespace_ = string_at(replica_set, "/metadata/namespace"_json_pointer)};
  options.label_selector = selector_text(replica_set.value("spec", Json::object()).value("selector", Json()));
  std::vector<Json> pods;
  for (const Json& pod : sim.cluster().list(*sim.kinds().pod, options).value("items", Json::array())) {
    if (controlled_by(pod, replica_set) && is_active(pod)) pods.push_back(pod);
  }
  return pods;
}

// getPodsToDelete's ranking, shortened: not ready before ready, then the newest first.
void rank_for_deletion(std::vector<Json>& pods) {
  std::stable_sort(pods.begin(), pods.end(), [](const Json& a, const Json& b) {
    if (pod_ready(a) != pod_ready(b)) return !pod_ready(a);
    return string_at(a, "/metadata/creationTimestamp"_json_pointer) >
           string_at(b, "/metadata/creationTimestamp"_json_pointer);
  });
}

bool labels_match(const Json& pod, const Json& labels) {
  if (!labels.is_object()) return true;
  const Json own = pod.value("/metadata/labels"_json_pointer, Json::object());
  for (const auto& [key, value] : labels.items()) {
    if (!own.is_object() || !own.contains(key) || own[key] != value) return false;
  }
  return true;
}

// calculateStatus: zero counts are omitted (omitempty) but `replicas`.
Json replica_set_status(const Json& replica_set, const std::vector<Json>& pods) {
  const Json labels = replica_set.value("/spec/template/metadata/labels"_json_pointer, Json::object());
  std::int64_t labelled = 0, ready = 0;
  for (const Json& pod : pods) {
    if (labels_match(pod, labels)) ++labelled;
    if (pod_ready(pod)) ++ready;
  }
  Json status = {{"replicas", static_cast<std::int64_t>(pods.size())},
                 {"fullyLabeledReplicas", labelled},
                 {"readyReplicas", ready},
                 {"availableReplicas", ready},
                 {"observedGeneration", int_at(replica_set, "/metadata/generation"_json_pointer, 1)}};
  for (const char* key : {"fullyLabeledReplicas", "readyReplicas", "availableReplicas"}) {
    if (status[key] == 0) status.erase(key);
  }
  return status;
}

}  // namespace

bool simulates_replica_set(const Simulation& sim, const Json& replica_set) {
  if (!sim.kinds().pod) return false;
  const Json refs = replica_set.value("/metadata/ownerReferences"_json_pointer, Json::array());
  for (const Json& ref : refs.is_array() ? refs : Json::array()) {
    // One the simulator made for a Deployment; only those are ever controlled by one here.
    if (ref.is_object() && ref.value("controller", false) && ref.value("kind", "") == "Deployment" &&
        ref.value("apiVersion", "") == "apps/v1") {
      return true;
    }
  }
  return sim.runs_on_node(pod_of_template(replica_set));
}

void simulate_replica_set(Simulation& sim, const ObjectKey& key) {
  const KindInfo& kind = *sim.kinds().replica_set;
  const Json stored = sim.cluster().get(kind, key);
  if (is_terminating(stored) || !simulates_replica_set(sim, stored)) return;
  sim.made_for(kind, stored);
  std::vector<Json> pods = active_pods(sim, stored);
  const auto wanted = static_cast<std::size_t>(
      std::max<std::int64_t>(0, int_at(stored, "/spec/replicas"_json_pointer, 1)));
  if (pods.size() > wanted) {
    rank_for_deletion(pods);  // the first ones go
    const auto surplus = static_cast<std::ptrdiff_t>(pods.size() - wanted);
    for (auto it = pods.begin(); it != pods.begin() + surplus; ++it) sim.remove(*sim.kinds().pod, key_of(*it));
    pods.erase(pods.begin(), pods.begin() + surplus);
  }
  while (pods.size() < wanted) pods.push_back(sim.create(*sim.kinds().pod, new_replica_set_pod(stored)));
  for (Json& pod : pods) {
    if (!sim.runs_on_node(pod)) pod = settle_pod(sim, pod, PodOutcome::Running);
  }
  Json updated = stored;
  updated["status"] = replica_set_status(stored, pods);
  if (updated["status"] != stored.value("status", Json())) sim.update_status(kind, updated);
}

}  // namespace rr::apiserver_detail
