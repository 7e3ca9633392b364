// The hooks of the Secret, Service and DisruptionBudget steps, and what every step shares. The
// StatefulSet step is in stateful_set_hooks.cpp.
#include "kvdb_hooks.hpp"

#include <random>
#include <utility>

#include "hook_support.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/object.hpp"

namespace kvdb {

namespace support {

std::map<std::string, std::string> selector_labels(const KeyValueStore& store) {
  return {{std::string(name_label), "kvdb"}, {std::string(instance_label), store.metadata.name}};
}

std::map<std::string, std::string> child_labels(const KeyValueStore& store) {
  std::map<std::string, std::string> labels = store.metadata.labels;
  for (auto& [key, value] : selector_labels(store)) labels[key] = std::move(value);
  labels[std::string(managed_by_label)] = "kvdb-operator";
  return labels;
}

rr::ConditionManager conditions_of(rr::Context& ctx, KeyValueStore& store) {
  return KeyValueStoreConditions().manage(rr::ensure_conditions(store), ctx.now());
}

bool mark_missing_child(rr::ConditionManager& conditions, std::string_view type, const rr::Error& err, bool exists,
                        std::string_view kind, const std::string& name) {
  if (rr::is_already_exists(err)) {
    conditions.mark_false(type, "NotOwned",
                          "There is an existing " + std::string(kind) + " " + rr::go_quote(name) +
                              " that the KeyValueStore does not own.");
  } else if (err) {
    conditions.mark_false(type, rr::reason_of(err), err.message());
  } else if (!exists) {
    conditions.mark_unknown(type, "NotCreated", "the " + std::string(kind) + " does not exist yet");
  }
  return err || !exists;
}

}  // namespace support

using support::child_labels;
using support::conditions_of;
using support::mark_missing_child;

StoreSpec spec_of(const KeyValueStore& store) {
  StoreSpec out;
  if (!store.spec) return out;
  const auto& spec = *store.spec;
  if (spec.replicas) out.replicas = *spec.replicas;
  if (spec.image) out.image = *spec.image;
  if (spec.storage) out.storage = spec.storage->str();
  if (spec.port) out.port = *spec.port;
  return out;
}

std::string random_password() {
  static constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device random;  // one per call: the hooks run on several workers at once
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  std::string password(32, ' ');
  for (char& c : password) c = alphabet[pick(random)];
  return password;
}

std::string secret_name(const KeyValueStore& store) { return store.metadata.name + "-password"; }

// --- Secret ---

rr::Desired<Secret> KeyValueStoreHooks::secret_desired(rr::Context&, const KeyValueStore& store) const {
  Secret s;
  s.metadata.namespace_ = store.metadata.namespace_;
  s.metadata.name = secret_name(store);
  s.metadata.labels = child_labels(store);
  s.type = "Opaque";  // the server's default, spelled out so that a Secret read back equals it
  // Fresh on every reconcile: only a Secret being created keeps it (see secret_merge).
  s.data = std::map<std::string, rr::Bytes>{{std::string(password_key), rr::Bytes::encode(new_password())}};
  return s;
}

void KeyValueStoreHooks::secret_merge(Secret& current, const Secret& desired) const {
  current.metadata.labels = desired.metadata.labels;
  // reconciler.io's way to generate a value once: the merge copies a desired key only where the
  // Secret lacks it. The stored password wins, the Secret then equals what was read, and the
  // object manager writes nothing. A password someone deleted is generated again.
  if (!desired.data) return;
  auto& data = current.data ? *current.data : current.data.emplace();
  for (const auto& [key, value] : *desired.data) data.try_emplace(key, value);
}

rr::Json KeyValueStoreHooks::secret_sanitize(const Secret& secret) const {
  rr::Json keys = rr::Json::array();
  if (secret.data) {
    for (const auto& entry : *secret.data) keys.push_back(entry.first);
  }
  return rr::Json{{"namespace", secret.metadata.namespace_}, {"name", secret.metadata.name}, {"keys", keys}};
}

void KeyValueStoreHooks::secret_reflect(rr::Context& ctx, KeyValueStore& store, const Secret* child,
                                        const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, store);
  auto& status = rr::ensure_status(store);
  if (mark_missing_child(conditions, KeyValueStoreCondition::SecretReady, err, child != nullptr, "Secret",
                         secret_name(store))) {
    status.secret_name.reset();
    return;
  }
  status.secret_name = child->metadata.name;
  conditions.mark_true(KeyValueStoreCondition::SecretReady, "PasswordSet");
}

// --- Service ---

rr::Desired<Service> KeyValueStoreHooks::service_desired(rr::Context&, const KeyValueStore& store) const {
  const StoreSpec spec = spec_of(store);
  Service s;
  s.metadata.namespace_ = store.metadata.namespace_;
  s.metadata.name = store.metadata.name;
  s.metadata.labels = child_labels(store);
  auto& service = s.spec.emplace();
  service.cluster_ip = "None";
  service.selector = support::selector_labels(store);
  service.publish_not_ready_addresses = true;
  k8s::core::v1::ServicePort port;
  port.name = "kvdb";
  port.port = spec.port;
  port.target_port = rr::IntOrString(spec.port);
  port.protocol = "TCP";
  service.ports = std::vector<k8s::core::v1::ServicePort>{port};
  return s;
}

void KeyValueStoreHooks::service_merge(Service& current, const Service& desired) const {
  current.metadata.labels = desired.metadata.labels;
  // Only what we own: the API server fills clusterIPs, ipFamilies ... and refuses a change of
  // clusterIP (None from the create on).
  auto& spec = current.spec ? *current.spec : current.spec.emplace();
  spec.selector = desired.spec->selector;
  spec.ports = desired.spec->ports;
  spec.publish_not_ready_addresses = desired.spec->publish_not_ready_addresses;
}

void KeyValueStoreHooks::service_reflect(rr::Context& ctx, KeyValueStore& store, const Service* child,
                                         const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, store);
  auto& status = rr::ensure_status(store);
  if (mark_missing_child(conditions, KeyValueStoreCondition::ServiceReady, err, child != nullptr, "Service",
                         store.metadata.name)) {
    status.service_name.reset();
    return;
  }
  status.service_name = child->metadata.name;
  conditions.mark_true(KeyValueStoreCondition::ServiceReady, "Exposed");
}

// --- DisruptionBudget ---

rr::Desired<PodDisruptionBudget> KeyValueStoreHooks::disruption_budget_desired(rr::Context&,
                                                                               const KeyValueStore& store) const {
  PodDisruptionBudget b;
  b.metadata.namespace_ = store.metadata.namespace_;
  b.metadata.name = store.metadata.name;
  b.metadata.labels = child_labels(store);
  auto& spec = b.spec.emplace();
  // One pod at a time, whatever spec.replicas: a quorum kept from 3 replicas on, a drain never
  // blocked for good (a single replica), nothing to update when the store scales.
  spec.max_unavailable = rr::IntOrString(1);
  spec.selector.emplace().match_labels = support::selector_labels(store);
  return b;
}

void KeyValueStoreHooks::disruption_budget_merge(PodDisruptionBudget& current,
                                                 const PodDisruptionBudget& desired) const {
  current.metadata.labels = desired.metadata.labels;
  current.spec = desired.spec;  // policy/v1 budgets are mutable, and the server defaults nothing in them
}

void KeyValueStoreHooks::disruption_budget_reflect(rr::Context& ctx, KeyValueStore& store,
                                                   const PodDisruptionBudget* child, const rr::Error& err) const {
  rr::ConditionManager conditions = conditions_of(ctx, store);
  if (mark_missing_child(conditions, KeyValueStoreCondition::DisruptionBudgetReady, err, child != nullptr,
                         "PodDisruptionBudget", store.metadata.name)) {
    return;
  }
  conditions.mark_true(KeyValueStoreCondition::DisruptionBudgetReady, "Protected");
}

}  // namespace kvdb
