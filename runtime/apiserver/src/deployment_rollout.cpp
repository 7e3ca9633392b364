// Deployments whose pods the node agent runs, as the deployment controller rolls them out: the
// ReplicaSet of the current template (`<deployment>-<pod-template-hash>`, next revision) made or
// found, scaled against the old ones (RollingUpdate within maxSurge and maxUnavailable, counting
// only available pods; Recreate: the old pods gone first), old sets beyond revisionHistoryLimit
// deleted, and the status summed from the sets' statuses with Available and Progressing.
#include <algorithm>
#include <vector>

#include "replica_set_objects.hpp"

namespace rr::apiserver_detail {

namespace {

struct Rollout {
  Simulation& sim;
  Json deployment;
  std::optional<Json> new_set;
  std::vector<Json> old_sets;  // oldest first
  std::int64_t replicas = 1;
  RolloutBounds bounds;
  bool created = false;  // the new set was made by this pass

  const KindInfo& sets_kind() const { return *sim.kinds().replica_set; }
};

std::int64_t spec_replicas(const Json& set) { return int_at(set, "/spec/replicas"_json_pointer, 1); }
std::int64_t status_count(const Json& set, const char* field) {
  return int_at(set, Json::json_pointer(std::string("/status/") + field), 0);
}

std::vector<Json> owned_replica_sets(Simulation& sim, const Json& deployment) {
  ListOptions options{.namespace_ = string_at(deployment, "/metadata/namespace"_json_pointer)};
  options.label_selector = selector_text(deployment.value("spec", Json::object()).value("selector", Json()));
  std::vector<Json> sets;
  for (const Json& set : sim.cluster().list(*sim.kinds().replica_set, options).value("items", Json::array())) {
    if (controlled_by(set, deployment)) sets.push_back(set);
  }
  std::stable_sort(sets.begin(), sets.end(), [](const Json& a, const Json& b) {
    return string_at(a, "/metadata/creationTimestamp"_json_pointer) <
           string_at(b, "/metadata/creationTimestamp"_json_pointer);
  });
  return sets;
}

std::int64_t total_replicas(const Rollout& r) {
  std::int64_t total = r.new_set ? spec_replicas(*r.new_set) : 0;
  for (const Json& set : r.old_sets) total += spec_replicas(set);
  return total;
}

// Scales a set, keeping its desired/max annotations those of the deployment (SetReplicasAnnotations).
void resize(Rollout& r, Json& set, std::int64_t replicas) {
  Json& annotations = set["metadata"]["annotations"];
  const std::string desired = std::to_string(r.replicas), max = std::to_string(r.replicas + r.bounds.max_surge);
  if (spec_replicas(set) == replicas && annotations.value(desired_replicas_annotation, "") == desired &&
      annotations.value(max_replicas_annotation, "") == max) {
    return;
  }
  set["spec"]["replicas"] = replicas;
  annotations[desired_replicas_annotation] = desired;
  annotations[max_replicas_annotation] = max;
  set = r.sim.update(r.sets_kind(), set);
}

std::int64_t max_old_revision(const Rollout& r) {
  std::int64_t revision = 0;
  for (const Json& set : r.old_sets) revision = std::max(revision, revision_of_replica_set(set));
  return revision;
}

// getNewReplicaSet: the set of the current template, made when missing; an older revision brought
// back (a rollback) takes the next revision number.
void find_or_make_new_set(Rollout& r, std::int64_t replicas) {
  const std::int64_t revision = max_old_revision(r) + 1;
  if (r.new_set) {
    if (revision_of_replica_set(*r.new_set) < revision) {
      (*r.new_set)["metadata"]["annotations"][revision_annotation] = std::to_string(revision);
      *r.new_set = r.sim.update(r.sets_kind(), *r.new_set);
    }
    return;
  }
  const std::string hash = pod_template_hash(r.deployment.at("/spec/template"_json_pointer));
  r.new_set = r.sim.create(r.sets_kind(), new_replica_set(r.deployment, hash, revision, replicas));
  r.created = true;
}

// NewRSNewReplicas for RollingUpdate: up to replicas + maxSurge pods over all sets.
std::int64_t new_set_target(const Rollout& r) {
  const std::int64_t current = r.new_set ? spec_replicas(*r.new_set) : 0;
  if (current >= r.replicas) return r.replicas;
  const std::int64_t room = r.replicas + r.bounds.max_surge - total_replicas(r);
  return current + std::clamp<std::int64_t>(room, 0, r.replicas - current);
}

// reconcileOldReplicaSets: old sets scaled down only as far as keeps replicas - maxUnavailable
// available, counting the new set's unavailable pods against it; their unavailable pods go first.
void scale_down_old(Rollout& r) {
  std::int64_t old_total = 0;
  for (const Json& set : r.old_sets) old_total += spec_replicas(set);
  if (old_total == 0 || !r.new_set) return;
  const std::int64_t min_available = r.replicas - r.bounds.max_unavailable;
  const std::int64_t new_unavailable = spec_replicas(*r.new_set) - status_count(*r.new_set, "availableReplicas");
  std::int64_t budget = total_replicas(r) - min_available - new_unavailable;
  if (budget <= 0) return;
  for (Json& set : r.old_sets) {  // cleanupUnhealthyReplicas
    const std::int64_t unhealthy = spec_replicas(set) - status_count(set, "availableReplicas");
    const std::int64_t down = std::min(budget, std::max<std::int64_t>(unhealthy, 0));
    if (down > 0) {
      resize(r, set, spec_replicas(set) - down);
      budget -= down;
    }
  }
  std::int64_t available = status_count(*r.new_set, "availableReplicas");
  for (const Json& set : r.old_sets) available += std::min(status_count(set, "availableReplicas"), spec_replicas(set));
  std::int64_t room = available - min_available;
  for (Json& set : r.old_sets) {  // scaleDownOldReplicaSetsForRollingUpdate, oldest first
    const std::int64_t down = std::min(room, spec_replicas(set));
    if (down > 0) {
      resize(r, set, spec_replicas(set) - down);
      room -= down;
    }
  }
}

void roll_rolling(Rollout& r) {
  if (!r.new_set) find_or_make_new_set(r, new_set_target(r));
  else find_or_make_new_set(r, 0);
  if (spec_replicas(*r.new_set) > r.replicas) return resize(r, *r.new_set, r.replicas);
  const std::int64_t target = new_set_target(r);
  if (target != spec_replicas(*r.new_set)) return resize(r, *r.new_set, target);  // one step a pass
  resize(r, *r.new_set, target);  // the annotations follow a scale of the deployment
  scale_down_old(r);
}

// Recreate: every old set to 0, and the new one scaled up only once no old pod is left.
void roll_recreate(Rollout& r) {
  bool old_pods = false;
  for (Json& set : r.old_sets) {
    resize(r, set, 0);
    ListOptions options{.namespace_ = string_at(set, "/metadata/namespace"_json_pointer)};
    options.label_selector = selector_text(set.value("spec", Json::object()).value("selector", Json()));
    for (const Json& pod : r.sim.cluster().list(*r.sim.kinds().pod, options).value("items", Json::array())) {
      const std::string phase = string_at(pod, "/status/phase"_json_pointer);
      if (controlled_by(pod, set) && phase != "Succeeded" && phase != "Failed") old_pods = true;
    }
  }
  if (old_pods) return;
  find_or_make_new_set(r, r.replicas);
  resize(r, *r.new_set, r.replicas);
}

// cleanupDeployment: old sets with no replicas beyond revisionHistoryLimit (10), oldest first.
void clean_up(Rollout& r) {
  const std::int64_t limit = int_at(r.deployment, "/spec/revisionHistoryLimit"_json_pointer, 10);
  std::vector<const Json*> idle;
  for (const Json& set : r.old_sets) {
    if (spec_replicas(set) == 0 && status_count(set, "replicas") == 0 && !is_terminating(set)) idle.push_back(&set);
  }
  for (std::size_t i = 0; i + static_cast<std::size_t>(std::max<std::int64_t>(limit, 0)) < idle.size(); ++i) {
    r.sim.remove(r.sets_kind(), key_of(*idle[i]));
  }
}

// SetDeploymentCondition: the same status and reason is no change; the same status keeps its
// lastTransitionTime. Replaced in place so the order stays.
void set_deployment_condition(Json& conditions, const std::string& type, bool status, const std::string& reason,
                              const std::string& message, const std::string& now) {
  Json condition = {{"type", type},          {"status", status ? "True" : "False"},
                    {"lastUpdateTime", now}, {"lastTransitionTime", now},
                    {"reason", reason},      {"message", message}};
  for (Json& current : conditions) {
    if (current.value("type", "") != type) continue;
    if (current.value("status", "") == condition["status"] && current.value("reason", "") == reason) return;
    if (current.value("status", "") == condition["status"])
      condition["lastTransitionTime"] = current["lastTransitionTime"];
    current = condition;
    return;
  }
  conditions.push_back(condition);
}

Json deployment_status(const Rollout& r) {
  const Json previous = r.deployment.value("status", Json::object());
  std::int64_t total = 0, ready = 0, available = 0;
  auto add = [&](const Json& set) {
    total += status_count(set, "replicas");
    ready += status_count(set, "readyReplicas");
    available += status_count(set, "availableReplicas");
  };
  for (const Json& set : r.old_sets) add(set);
  if (r.new_set) add(*r.new_set);
  const std::int64_t updated = r.new_set ? status_count(*r.new_set, "replicas") : 0;
  const std::int64_t generation = int_at(r.deployment, "/metadata/generation"_json_pointer, 1);
  Json status = {
      {"observedGeneration", generation}, {"replicas", total},
      {"updatedReplicas", updated},       {"readyReplicas", ready},
      {"availableReplicas", available},   {"unavailableReplicas", std::max<std::int64_t>(r.replicas - available, 0)}};
  for (const char* key : {"replicas", "updatedReplicas", "readyReplicas", "availableReplicas", "unavailableReplicas"}) {
    if (status[key] == 0) status.erase(key);  // omitempty
  }
  Json conditions = previous.value("conditions", Json::array());
  if (!conditions.is_array()) conditions = Json::array();
  if (available >= r.replicas - r.bounds.max_unavailable) {
    set_deployment_condition(conditions, "Available", true, "MinimumReplicasAvailable",
                             "Deployment has minimum availability.", r.sim.now());
  } else {
    set_deployment_condition(conditions, "Available", false, "MinimumReplicasUnavailable",
                             "Deployment does not have minimum availability.", r.sim.now());
  }
  const std::string set_name = r.new_set ? string_at(*r.new_set, "/metadata/name"_json_pointer) : std::string();
  const bool complete = r.new_set && updated == r.replicas && total == r.replicas && available == r.replicas;
  if (complete) {
    set_deployment_condition(conditions, "Progressing", true, "NewReplicaSetAvailable",
                             "ReplicaSet \"" + set_name + "\" has successfully progressed.", r.sim.now());
  } else if (r.created) {
    set_deployment_condition(conditions, "Progressing", true, "NewReplicaSetCreated",
                             "Created new replica set \"" + set_name + "\"", r.sim.now());
  } else if (r.new_set) {
    set_deployment_condition(conditions, "Progressing", true, "ReplicaSetUpdated",
                             "ReplicaSet \"" + set_name + "\" is progressing.", r.sim.now());
  }
  status["conditions"] = conditions;
  return status;
}

}  // namespace

bool roll_out_deployment(Simulation& sim, const Json& deployment) {
  if (!sim.kinds().replica_set || !sim.kinds().pod || is_terminating(deployment)) return false;
  std::vector<Json> sets = owned_replica_sets(sim, deployment);
  if (sets.empty() && !sim.runs_on_node(pod_of_template(deployment))) return false;
  const KindInfo& kind = *sim.kinds().deployment;
  sim.made_for(kind, deployment);
  Rollout r{.sim = sim,
            .deployment = deployment,
            .new_set = std::nullopt,
            .old_sets = {},
            .replicas = std::max<std::int64_t>(0, int_at(deployment, "/spec/replicas"_json_pointer, 1)),
            .bounds = rollout_bounds(deployment),
            .created = false};
  // FindNewReplicaSet: the oldest set of the current template (by its hash label, or equal but for it).
  const Json wanted = deployment.value("/spec/template"_json_pointer, Json::object());
  const std::string hash = pod_template_hash(wanted);
  for (Json& set : sets) {
    const Json pod_template = set.value("/spec/template"_json_pointer, Json::object());
    const bool current = string_at(set, Json::json_pointer("/metadata/labels/pod-template-hash")) == hash ||
                         template_without_hash(pod_template) == wanted;
    if (!r.new_set && current) r.new_set = std::move(set);
    else r.old_sets.push_back(std::move(set));
  }
  if (!deployment.value("/spec/paused"_json_pointer, false)) {
    if (string_at(deployment, "/spec/strategy/type"_json_pointer, "RollingUpdate") == "Recreate") roll_recreate(r);
    else roll_rolling(r);
    clean_up(r);
  }
  Json updated = r.deployment;
  if (r.new_set) {  // SetDeploymentRevision
    const std::string revision = std::to_string(revision_of_replica_set(*r.new_set));
    if (updated.value("/metadata/annotations"_json_pointer, Json::object()).value(revision_annotation, "") !=
        revision) {
      updated["metadata"]["annotations"][revision_annotation] = revision;
      updated = sim.update(kind, updated);
      r.deployment = updated;
    }
  }
  updated["status"] = deployment_status(r);
  if (updated["status"] != r.deployment.value("status", Json())) sim.update_status(kind, updated);
  return true;
}

}  // namespace rr::apiserver_detail
