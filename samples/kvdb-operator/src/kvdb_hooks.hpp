// The KeyValueStore operator's hooks: what rrgen's generated wiring (kvdb_reconciler.cpp) calls
// for each step of reconciler.yaml. This file is ours; rrgen created it once and never rewrites it.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "kvdb_reconciler.hpp"
#include "rr/core/json.hpp"  // secret_sanitize returns an rr::Json, which the wiring turns into log text
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object_manager.hpp"

namespace kvdb {

// Labels every child carries; the first two select the database's pods.
inline constexpr std::string_view name_label = "app.kubernetes.io/name";
inline constexpr std::string_view instance_label = "app.kubernetes.io/instance";
inline constexpr std::string_view managed_by_label = "app.kubernetes.io/managed-by";
// The Secret's key, and the environment variable the pods read it from.
inline constexpr std::string_view password_key = "password";
inline constexpr std::string_view password_env = "KVDB_PASSWORD";
// The volume claim template each pod mounts its data from (PVC "data-<name>-<ordinal>").
inline constexpr std::string_view data_volume = "data";
inline constexpr std::string_view data_mount_path = "/var/lib/kvdb";
// Scaling and Updating are reported beside Ready, not summarised by it: True means work in
// progress, so they would hold Ready back the wrong way round.
inline constexpr std::string_view scaling_condition = "Scaling";
inline constexpr std::string_view updating_condition = "Updating";

// The spec's values, with the CRD's defaults for a KeyValueStore built in code (one read from
// the API server carries them already).
struct StoreSpec {
  std::int32_t replicas = 3;
  std::string image = "registry.example/kvdb:1.0";
  std::string storage = "1Gi";
  std::int32_t port = 6379;
};
StoreSpec spec_of(const KeyValueStore& store);

// 32 letters and digits from std::random_device: the password of a new store.
std::string random_password();

struct KeyValueStoreHooks {
  // Where a new password comes from; tests pass a fixed one.
  std::function<std::string()> new_password = random_password;

  // Secret "<name>-password": key "password", a fresh password in every desired Secret. The merge
  // keeps the one already stored, so it is written once and never changes.
  rr::Desired<Secret> secret_desired(rr::Context& ctx, const KeyValueStore& store) const;
  void secret_merge(Secret& current, const Secret& desired) const;
  // Optional hook: what the operator's log shows of the Secret (its keys, never their values).
  rr::Json secret_sanitize(const Secret& secret) const;
  void secret_reflect(rr::Context& ctx, KeyValueStore& store, const Secret* child, const rr::Error& err) const;

  // Service "<name>": headless (clusterIP None), so each pod gets a stable DNS name
  // <name>-<ordinal>.<name>; not-ready pods are published too, for the peers to find each other.
  rr::Desired<Service> service_desired(rr::Context& ctx, const KeyValueStore& store) const;
  void service_merge(Service& current, const Service& desired) const;
  void service_reflect(rr::Context& ctx, KeyValueStore& store, const Service* child, const rr::Error& err) const;

  // StatefulSet "<name>": spec.replicas pods of spec.image on spec.port, the password from the
  // Secret, a ReadWriteOnce claim of spec.storage each. Reflected as readyReplicas, currentImage
  // and the Scaling, Updating and StatefulSetReady conditions.
  rr::Desired<StatefulSet> stateful_set_desired(rr::Context& ctx, const KeyValueStore& store) const;
  void stateful_set_merge(StatefulSet& current, const StatefulSet& desired) const;
  void stateful_set_reflect(rr::Context& ctx, KeyValueStore& store, const StatefulSet* child,
                            const rr::Error& err) const;

  // PodDisruptionBudget "<name>": maxUnavailable 1 (README.md says why not a quorum minAvailable).
  rr::Desired<PodDisruptionBudget> disruption_budget_desired(rr::Context& ctx, const KeyValueStore& store) const;
  void disruption_budget_merge(PodDisruptionBudget& current, const PodDisruptionBudget& desired) const;
  void disruption_budget_reflect(rr::Context& ctx, KeyValueStore& store, const PodDisruptionBudget* child,
                                 const rr::Error& err) const;
};

// "<name>-password": the Secret's name.
std::string secret_name(const KeyValueStore& store);

}  // namespace kvdb
