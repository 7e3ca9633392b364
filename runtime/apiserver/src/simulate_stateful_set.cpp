// StatefulSets: pods <set>-<ordinal> made in order, one claim per volume claim template, highest
// ordinals removed first on scale-down, pods at an old revision replaced from the highest ordinal
// down, and the status the controller reports. Pods the node agent runs report themselves and are
// waited for (OrderedReady, rolling updates) as the controller waits; any other pod is reported
// Running and Ready as soon as it is made.
#include <algorithm>
#include <map>
#include <vector>

#include "simulated_pod.hpp"
#include "stateful_set_objects.hpp"

namespace rr::apiserver_detail {

namespace {

using Pods = std::map<std::int64_t, Json>;  // by ordinal

Pods owned_pods(Simulation& sim, const StatefulSetView& set) {
  ListOptions options{.namespace_ = set.namespace_};
  options.label_selector = selector_text(set.set.value("spec", Json::object()).value("selector", Json()));
  Pods pods;
  for (const Json& pod : sim.cluster().list(*sim.kinds().pod, options).value("items", Json::array())) {
    const std::int64_t ordinal = ordinal_of(set, pod);
    if (ordinal >= 0 && controlled_by(pod, set.set)) pods[ordinal] = pod;
  }
  return pods;
}

bool in_range(const StatefulSetView& set, std::int64_t ordinal) {
  return ordinal >= set.start && ordinal < set.start + set.replicas;
}

// Creates the missing claims of `ordinal` (Bound) and keeps the owners of the present ones as
// the retention policy wants them.
void settle_claims(Simulation& sim, const StatefulSetView& set, std::int64_t ordinal, const Json* condemned_pod) {
  if (!sim.kinds().claim) return;
  const KindInfo& kind = *sim.kinds().claim;
  for (const Json& wanted : new_claims(set, ordinal)) {
    Json claim;
    try {
      claim = sim.cluster().get(kind, key_of(wanted));
    } catch (const ApiError& e) {
      if (!is_not_found(e.status())) throw;
      if (condemned_pod) continue;  // nothing to hand to a pod that goes
      claim = sim.create(kind, wanted);
    }
    const Json refs = claim_owner_refs(set, claim, condemned_pod);
    if (claim["metadata"].value("ownerReferences", Json::array()) != refs) {
      if (refs.empty()) claim["metadata"].erase("ownerReferences");
      else claim["metadata"]["ownerReferences"] = refs;
      claim = sim.update(kind, claim);
    }
    if (string_at(claim, "/status/phase"_json_pointer) != "Bound") {
      claim["status"] = bound_claim_status(claim);
      sim.update_status(kind, claim);
    }
  }
}

bool settled(const Json& pod) { return pod_ready(pod) && !is_terminating(pod); }

// Highest ordinal first. OrderedReady takes one pod at a time: a pod the node agent runs stays
// Terminating until its containers stopped, and the next waits for it and for every other pod to
// be Ready (the controller's "scale down ... waiting for ... to be Running and Ready").
void scale_down(Simulation& sim, const StatefulSetView& set, Pods& pods) {
  std::vector<std::int64_t> condemned;  // highest first
  for (auto it = pods.rbegin(); it != pods.rend(); ++it) {
    if (!in_range(set, it->first) && !is_terminating(it->second)) condemned.push_back(it->first);
  }
  for (const std::int64_t ordinal : condemned) {
    if (!set.parallel && !std::all_of(pods.begin(), pods.end(), [](const auto& p) { return settled(p.second); })) {
      return;
    }
    const bool on_node = sim.runs_on_node(pods[ordinal]);
    settle_claims(sim, set, ordinal, &pods[ordinal]);  // whenScaled: Delete hands the claims to the pod
    sim.remove(*sim.kinds().pod, key_of(pods[ordinal]));
    if (on_node) {
      pods[ordinal]["metadata"]["deletionTimestamp"] = sim.now();  // as stored: Terminating
      if (!set.parallel) return;
    } else {
      pods.erase(ordinal);
    }
  }
}

// Creates the missing pods in ordinal order; OrderedReady makes each Ready before the next and
// stops at a pod still going away. A pod that finished (Succeeded or Failed) is deleted to be made
// again. False when that held the set up.
bool scale_up(Simulation& sim, const StatefulSetView& set, Pods& pods) {
  for (std::int64_t ordinal = set.start; ordinal < set.start + set.replicas; ++ordinal) {
    auto found = pods.find(ordinal);
    if (found != pods.end() && !is_terminating(found->second)) {
      const std::string phase = string_at(found->second, "/status/phase"_json_pointer);
      if (phase == "Succeeded" || phase == "Failed") {
        sim.remove(*sim.kinds().pod, key_of(found->second));
        found->second["metadata"]["deletionTimestamp"] = sim.now();
      }
    }
    if (found != pods.end() && is_terminating(found->second)) {
      if (set.parallel) continue;
      return false;
    }
    settle_claims(sim, set, ordinal, nullptr);
    if (found == pods.end()) {
      const Json pod = new_stateful_pod(set, ordinal);
      pods[ordinal] = set.parallel || sim.runs_on_node(pod) ? sim.create(*sim.kinds().pod, pod)
                                                            : create_simulated_pod(sim, pod, PodOutcome::Running);
    } else if (!set.parallel && !sim.runs_on_node(found->second)) {
      pods[ordinal] = settle_pod(sim, found->second, PodOutcome::Running);
    }
    if (!set.parallel && !pod_ready(pods[ordinal])) return false;  // the node runs it: wait for Ready
  }
  for (auto& [ordinal, pod] : pods) {
    if (!sim.runs_on_node(pod)) pod = settle_pod(sim, pod, PodOutcome::Running);
  }
  return true;
}

// RollingUpdate: each pod at another revision, from the highest ordinal down to the partition,
// deleted and made again from the current template. A pod the node runs is replaced one at a
// time, once every pod is Ready; scale_up makes it again when it is gone.
void roll(Simulation& sim, const StatefulSetView& set, Pods& pods) {
  for (auto it = pods.rbegin(); it != pods.rend(); ++it) {
    auto& [ordinal, pod] = *it;
    if (ordinal < set.partition || revision_of(pod) == set.update_revision || is_terminating(pod)) continue;
    if (sim.runs_on_node(pod)) {
      if (!std::all_of(pods.begin(), pods.end(), [](const auto& p) { return settled(p.second); })) return;
      sim.remove(*sim.kinds().pod, key_of(pod));
      pod["metadata"]["deletionTimestamp"] = sim.now();
      return;
    }
    sim.remove(*sim.kinds().pod, key_of(pod));
    pod = create_simulated_pod(sim, new_stateful_pod(set, ordinal), PodOutcome::Running);
  }
}

struct Counts {
  std::int64_t replicas = 0, ready = 0, current = 0, updated = 0;
};

Json set_status(const StatefulSetView& set, const Counts& counts, std::string current_revision) {
  std::int64_t current = counts.current;
  // completeRollingUpdate: once every pod is updated and ready, the update revision is current.
  if (current_revision.empty() ||
      (set.rolling && counts.updated == counts.replicas && counts.ready == counts.replicas)) {
    current_revision = set.update_revision;
    current = counts.updated;
  }
  Json status = {{"observedGeneration", int_at(set.set, "/metadata/generation"_json_pointer, 1)},
                 {"replicas", counts.replicas},
                 {"readyReplicas", counts.ready},
                 {"currentReplicas", current},
                 {"updatedReplicas", counts.updated},
                 {"availableReplicas", counts.ready},
                 {"currentRevision", current_revision},
                 {"updateRevision", set.update_revision},
                 {"collisionCount", 0}};
  // omitempty in apps/v1 StatefulSetStatus
  for (const char* key : {"readyReplicas", "currentReplicas", "updatedReplicas"}) {
    if (status[key] == 0) status.erase(key);
  }
  const Json previous = set.set.value("status", Json::object());
  if (previous.contains("conditions")) status["conditions"] = previous["conditions"];
  return status;
}

Counts count(const Pods& pods, const std::string& current_revision, const std::string& update_revision) {
  Counts counts;
  for (const auto& [ordinal, pod] : pods) {
    if (is_terminating(pod)) continue;
    ++counts.replicas;
    if (pod_ready(pod)) ++counts.ready;
    if (revision_of(pod) == current_revision) ++counts.current;
    if (revision_of(pod) == update_revision) ++counts.updated;
  }
  return counts;
}

}  // namespace

void simulate_stateful_set(Simulation& sim, const ObjectKey& key) {
  const KindInfo& kind = *sim.kinds().stateful_set;
  const Json stored = sim.cluster().get(kind, key);
  if (is_terminating(stored)) return;
  sim.made_for(kind, stored);
  const StatefulSetView set = view_stateful_set(stored);
  const std::string current_revision = string_at(stored, "/status/currentRevision"_json_pointer);
  Counts counts;
  if (sim.kinds().pod) {
    Pods pods = owned_pods(sim, set);
    scale_down(sim, set, pods);
    if (scale_up(sim, set, pods) && set.rolling) roll(sim, set, pods);
    counts = count(pods, current_revision, set.update_revision);
  } else {
    // No pods to make: every replica reported ready at the update revision, as for Deployments.
    counts = {set.replicas, set.replicas, set.replicas, set.replicas};
  }
  Json updated = stored;
  updated["status"] = set_status(set, counts, current_revision);
  if (updated["status"] != stored.value("status", Json())) sim.update_status(kind, updated);
}

}  // namespace rr::apiserver_detail
