// What the KeyValueStore tables share: the store they start from, its children as the cluster
// should receive them, and its conditions. Objects are built with the generated dies
// (kvdb_dies.hpp); the expected children are written out field by field, not computed by the
// hooks under test.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kvdb_dies.hpp"
#include "kvdb_hooks.hpp"
#include "rr/core/int_or_string.hpp"

namespace kvdb_test {

using kvdb::dies::condition;
using kvdb::dies::KeyValueStoreDie;
using kvdb::dies::PodDisruptionBudgetDie;
using kvdb::dies::SecretDie;
using kvdb::dies::ServiceDie;
using kvdb::dies::StatefulSetDie;

inline constexpr const char* test_namespace = "test-namespace";
inline constexpr const char* store_name = "test-kvdb";
inline constexpr const char* secret_name = "test-kvdb-password";
inline constexpr const char* image_1_0 = "registry.example/kvdb:1.0";
inline constexpr const char* image_1_1 = "registry.example/kvdb:1.1";
// What the hooks under test generate as a new password, and one a Secret already holds.
inline constexpr const char* fresh_password = "fresh-password";
inline constexpr const char* stored_password = "stored-password";

// A KeyValueStore as the API server hands it out: uid (for owner references), generation, and
// the CRD's defaults applied (3 replicas of kvdb:1.0, 1Gi each, port 6379).
inline KeyValueStoreDie store() {
  return KeyValueStoreDie()
      .namespace_(test_namespace)
      .name(store_name)
      .uid("kvdb-uid")
      .generation(1)
      .spec_replicas(3)
      .spec_image(image_1_0)
      .spec_storage(rr::Quantity("1Gi"))
      .spec_port(6379);
}

// The hooks the wiring calls, with `fresh_password` as every new password.
inline std::shared_ptr<const kvdb::KeyValueStoreHooks> hooks() {
  auto hooks = std::make_shared<kvdb::KeyValueStoreHooks>();
  hooks->new_password = [] { return std::string(fresh_password); };
  return hooks;
}

// --- conditions ---

// The conditions in the order the manager keeps them (by type). The five Ready summarises start
// as the root reconciler initialises them (Unknown, Initializing); Scaling and Updating exist once
// the StatefulSet step has seen a StatefulSet. A case names only those it expects to differ.
struct Conditions {
  rr::Condition budget = condition("DisruptionBudgetReady", "Unknown", "Initializing");
  rr::Condition ready = condition("Ready", "Unknown", "Initializing");
  std::optional<rr::Condition> scaling{};
  rr::Condition secret = condition("SecretReady", "Unknown", "Initializing");
  rr::Condition service = condition("ServiceReady", "Unknown", "Initializing");
  rr::Condition stateful_set = condition("StatefulSetReady", "Unknown", "Initializing");
  std::optional<rr::Condition> updating{};
};

inline std::vector<rr::Condition> conditions(const Conditions& c) {
  std::vector<rr::Condition> out{c.budget, c.ready};
  if (c.scaling) out.push_back(*c.scaling);
  out.insert(out.end(), {c.secret, c.service, c.stateful_set});
  if (c.updating) out.push_back(*c.updating);
  return out;
}

// Scaling and Updating as the StatefulSet step reports them.
inline rr::Condition scaling(std::int32_t ready, std::int32_t wanted) {
  const std::string message = std::to_string(ready) + "/" + std::to_string(wanted) + " replicas ready";
  if (ready == wanted) return condition("Scaling", "False", "AllReplicasReady", message);
  return condition("Scaling", "True", ready < wanted ? "ScalingUp" : "ScalingDown", message);
}
inline rr::Condition up_to_date(const std::string& image = image_1_0) {
  return condition("Updating", "False", "UpToDate", "the pods run " + image);
}
inline rr::Condition rolling(std::int32_t updated, std::int32_t wanted, const std::string& image = image_1_1) {
  return condition("Updating", "True", "RollingUpdate",
                   std::to_string(updated) + "/" + std::to_string(wanted) + " replicas updated to " + image);
}

// Every condition as a store whose `replicas` pods all run `image` has them.
inline std::vector<rr::Condition> all_ready(std::int32_t replicas = 3, const std::string& image = image_1_0) {
  return conditions({
      .budget = condition("DisruptionBudgetReady", "True", "Protected"),
      .ready = condition("Ready", "True", "Ready"),
      .scaling = scaling(replicas, replicas),
      .secret = condition("SecretReady", "True", "PasswordSet"),
      .service = condition("ServiceReady", "True", "Exposed"),
      .stateful_set = condition("StatefulSetReady", "True", "AllReplicasReady"),
      .updating = up_to_date(image),
  });
}

// --- children ---

inline std::map<std::string, std::string> selector_labels() {
  return {{"app.kubernetes.io/instance", store_name}, {"app.kubernetes.io/name", "kvdb"}};
}
// The labels every child carries.
inline std::map<std::string, std::string> child_labels() {
  auto labels = selector_labels();
  labels["app.kubernetes.io/managed-by"] = "kvdb-operator";
  return labels;
}

// The Secret "test-kvdb-password" holding `password` (controlled by store()).
inline SecretDie secret(const std::string& password) {
  return SecretDie()
      .namespace_(test_namespace)
      .name(secret_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(store())
      .type("Opaque")
      .data({{"password", rr::Bytes::encode(password)}});
}

// The headless Service "test-kvdb" in front of the pods' `port`.
inline ServiceDie service(std::int32_t port = 6379) {
  k8s::core::v1::ServicePort service_port;
  service_port.name = "kvdb";
  service_port.port = port;
  service_port.target_port = rr::IntOrString(port);
  service_port.protocol = "TCP";
  return ServiceDie()
      .namespace_(test_namespace)
      .name(store_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(store())
      .spec_cluster_ip("None")
      .spec_selector(selector_labels())
      .spec_publish_not_ready_addresses(true)
      .spec_ports({service_port});
}

// What the StatefulSet runs, as the store's spec says.
struct Workload {
  std::int32_t replicas = 3;
  std::string image = image_1_0;
  std::int32_t port = 6379;
  std::string storage = "1Gi";
};

// The StatefulSet "test-kvdb" as the reconciler submits it (controlled by store()).
inline StatefulSetDie stateful_set(const Workload& w = {}) {
  return StatefulSetDie()
      .namespace_(test_namespace)
      .name(store_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(store())
      .spec([&](k8s::apps::v1::StatefulSetSpec& spec) {
        spec.replicas = w.replicas;
        spec.service_name = store_name;
        spec.selector.match_labels = selector_labels();
        spec.template_.metadata.emplace().labels = child_labels();
        k8s::core::v1::Container container;
        container.name = "kvdb";
        container.image = w.image;
        k8s::core::v1::ContainerPort port;
        port.name = "kvdb";
        port.container_port = w.port;
        port.protocol = "TCP";
        container.ports = std::vector<k8s::core::v1::ContainerPort>{port};
        k8s::core::v1::EnvVar password;
        password.name = "KVDB_PASSWORD";
        auto& ref = password.value_from.emplace().secret_key_ref.emplace();
        ref.name = secret_name;
        ref.key = "password";
        container.env = std::vector<k8s::core::v1::EnvVar>{password};
        k8s::core::v1::VolumeMount data;
        data.name = "data";
        data.mount_path = "/var/lib/kvdb";
        container.volume_mounts = std::vector<k8s::core::v1::VolumeMount>{data};
        spec.template_.spec.emplace().containers = {container};
        k8s::core::v1::PersistentVolumeClaim claim;
        claim.metadata.name = "data";
        auto& claim_spec = claim.spec.emplace();
        claim_spec.access_modes = std::vector<std::string>{"ReadWriteOnce"};
        claim_spec.resources.emplace().requests = std::map<std::string, rr::Quantity>{
            {"storage", rr::Quantity(w.storage)}};
        spec.volume_claim_templates = std::vector<k8s::core::v1::PersistentVolumeClaim>{claim};
      });
}

// A StatefulSet's status as its controller writes it, having seen the StatefulSet's generation.
struct Pods {
  std::int32_t replicas = 3;  // pods that exist
  std::int32_t ready = 3;
  std::int32_t updated = 3;  // pods at the update revision
  std::string current_revision = "test-kvdb-1";
  std::string update_revision = "test-kvdb-1";
};
inline StatefulSetDie observed(const StatefulSetDie& set, const Pods& p = {}) {
  return set.status_observed_generation(set.get().metadata.generation)
      .status_replicas(p.replicas)
      .status_ready_replicas(p.ready)
      .status_updated_replicas(p.updated)
      .status_current_revision(p.current_revision)
      .status_update_revision(p.update_revision);
}

// The PodDisruptionBudget "test-kvdb": one pod at a time.
inline PodDisruptionBudgetDie disruption_budget() {
  return PodDisruptionBudgetDie()
      .namespace_(test_namespace)
      .name(store_name)
      .metadata([](rr::ObjectMeta& m) { m.labels = child_labels(); })
      .controlled_by(store())
      .spec([](k8s::policy::v1::PodDisruptionBudgetSpec& spec) {
        spec.max_unavailable = rr::IntOrString(1);
        spec.selector.emplace().match_labels = selector_labels();
      });
}

}  // namespace kvdb_test
