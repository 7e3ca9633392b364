// The hooks of the StatefulSet step: the database's pods and volumes, and how far the
// StatefulSet's controller has got with them (Scaling, Updating, StatefulSetReady).
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "hook_support.hpp"
#include "kvdb_hooks.hpp"
#include "rr/reconcilers/object.hpp"

namespace kvdb {

namespace {

namespace core = k8s::core::v1;
using support::conditions_of;

std::string image_of(const StatefulSet& set) {
  if (!set.spec || !set.spec->template_.spec) return {};
  const auto& containers = set.spec->template_.spec->containers;
  return !containers.empty() && containers.front().image ? *containers.front().image : std::string();
}

// What the StatefulSet's status says, read the way `kubectl rollout status` reads it.
struct Rollout {
  std::int32_t wanted = 0;   // spec.replicas
  std::int32_t ready = 0;    // status.readyReplicas
  std::int32_t updated = 0;  // pods at the update revision
  std::string image;         // the template's image: where the rollout goes
  bool updating = false;
};

Rollout rollout_of(const StatefulSet& set, const KeyValueStore& store) {
  Rollout r;
  r.wanted = set.spec && set.spec->replicas ? *set.spec->replicas : 1;
  r.image = image_of(set);
  const auto& status = set.status;
  if (status) r.ready = status->ready_replicas.value_or(0);
  // A status older than the spec tells nothing about the new template: until the controller has
  // seen it, a template whose image the pods do not run yet is an update in progress.
  if (!status || status->observed_generation.value_or(0) < set.metadata.generation) {
    r.updating = store.status && store.status->current_image && *store.status->current_image != r.image;
    return r;
  }
  r.updated = status->updated_replicas.value_or(0);
  r.updating = status->current_revision != status->update_revision || r.updated < status->replicas;
  return r;
}

rr::Condition condition(std::string_view type, bool status, std::string reason, std::string message) {
  rr::Condition c;
  c.type = std::string(type);
  c.status = status ? "True" : "False";
  c.reason = std::move(reason);
  c.message = std::move(message);
  return c;
}

}  // namespace

rr::Desired<StatefulSet> KeyValueStoreHooks::stateful_set_desired(rr::Context&, const KeyValueStore& store) const {
  const StoreSpec spec = spec_of(store);
  StatefulSet set;
  set.metadata.namespace_ = store.metadata.namespace_;
  set.metadata.name = store.metadata.name;
  set.metadata.labels = support::child_labels(store);
  auto& s = set.spec.emplace();
  s.replicas = spec.replicas;
  s.service_name = store.metadata.name;  // the headless Service: pod DNS names <name>-<n>.<name>
  s.selector.match_labels = support::selector_labels(store);
  s.template_.metadata.emplace().labels = set.metadata.labels;

  core::Container container;
  container.name = "kvdb";
  container.image = spec.image;
  core::ContainerPort port;
  port.name = "kvdb";
  port.container_port = spec.port;
  port.protocol = "TCP";  // the server's default, spelled out so that a read back equals it
  container.ports = std::vector<core::ContainerPort>{port};
  core::EnvVar password;
  password.name = std::string(password_env);
  auto& ref = password.value_from.emplace().secret_key_ref.emplace();
  ref.name = secret_name(store);
  ref.key = std::string(password_key);
  container.env = std::vector<core::EnvVar>{password};
  core::VolumeMount data;
  data.name = std::string(data_volume);
  data.mount_path = std::string(data_mount_path);
  container.volume_mounts = std::vector<core::VolumeMount>{data};
  s.template_.spec.emplace().containers = {container};

  core::PersistentVolumeClaim claim;
  claim.metadata.name = std::string(data_volume);
  auto& claim_spec = claim.spec.emplace();
  claim_spec.access_modes = std::vector<std::string>{"ReadWriteOnce"};
  claim_spec.resources.emplace().requests = std::map<std::string, rr::Quantity>{
      {"storage", rr::Quantity(spec.storage)}};
  s.volume_claim_templates = std::vector<core::PersistentVolumeClaim>{claim};
  return set;
}

void KeyValueStoreHooks::stateful_set_merge(StatefulSet& current, const StatefulSet& desired) const {
  current.metadata.labels = desired.metadata.labels;
  // Only what a StatefulSet lets change: the API server refuses an update of serviceName,
  // selector or volumeClaimTemplates. A new spec.storage therefore reaches new stores only.
  auto& spec = current.spec ? *current.spec : current.spec.emplace();
  spec.replicas = desired.spec->replicas;
  spec.template_ = desired.spec->template_;
}

void KeyValueStoreHooks::stateful_set_reflect(rr::Context& ctx, KeyValueStore& store, const StatefulSet* child,
                                              const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, store);
  auto& status = rr::ensure_status(store);
  if (support::mark_missing_child(conditions, KeyValueStoreCondition::StatefulSetReady, err, child != nullptr,
                                  "StatefulSet", store.metadata.name)) {
    // No StatefulSet: nothing scales or rolls. Neither is a condition Ready summarises, so
    // clear() cannot fail.
    status.ready_replicas.reset();
    (void)conditions.clear(scaling_condition);
    (void)conditions.clear(updating_condition);
    return;
  }
  const Rollout r = rollout_of(*child, store);
  status.ready_replicas = r.ready;
  if (!r.updating) status.current_image = r.image;

  const std::string ready = std::to_string(r.ready) + "/" + std::to_string(r.wanted) + " replicas ready";
  const std::string updated = r.updating ? std::to_string(r.updated) + "/" + std::to_string(r.wanted) +
                                               " replicas updated to " + r.image
                                         : "the pods run " + r.image;
  const bool scaling = r.ready != r.wanted;
  const std::string scaling_reason = r.ready < r.wanted ? "ScalingUp" : "ScalingDown";
  // set(), not mark_*(): neither is one of the conditions Ready summarises.
  conditions.set(condition(scaling_condition, scaling, scaling ? scaling_reason : "AllReplicasReady", ready));
  conditions.set(condition(updating_condition, r.updating, r.updating ? "RollingUpdate" : "UpToDate", updated));
  if (r.updating) {
    conditions.mark_unknown(KeyValueStoreCondition::StatefulSetReady, "RollingUpdate", updated);
  } else if (scaling) {
    conditions.mark_unknown(KeyValueStoreCondition::StatefulSetReady, scaling_reason, ready);
  } else {
    conditions.mark_true(KeyValueStoreCondition::StatefulSetReady, "AllReplicasReady");
  }
}

}  // namespace kvdb
