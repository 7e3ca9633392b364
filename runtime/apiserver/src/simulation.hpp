// What the workload simulator's per-kind parts share: the kinds it writes, the writes themselves
// (counted), and small readers of the JSON objects. Each simulate_* function settles one object:
// it reads the owner and what it owns afresh, writes only what differs, and lets rr::ApiError
// (409, 404, ...) escape, since the write that beat it brings its own event.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

// The kinds the simulator reads and writes, as registered when it started.
struct SimulatedKinds {
  std::optional<KindInfo> deployment;
  std::optional<KindInfo> replica_set;
  std::optional<KindInfo> stateful_set;
  std::optional<KindInfo> job;
  std::optional<KindInfo> pod;
  std::optional<KindInfo> claim;  // PersistentVolumeClaim
};

SimulatedKinds find_simulated_kinds(const Cluster& cluster);

class Simulation {
 public:
  // `runs_on_node`: the node agent's predicate (may be empty: no pod runs on a node).
  Simulation(Cluster& cluster, const SimulatedKinds& kinds, std::atomic<long long>& writes,
             const std::function<bool(const Json&)>& runs_on_node);

  Cluster& cluster() const { return cluster_; }
  const SimulatedKinds& kinds() const { return kinds_; }
  // The cluster's clock as RFC 3339, read once per settle so one pass writes one time.
  const std::string& now() const { return now_; }
  // Whether a node agent runs `pod` (and reports its status itself).
  bool runs_on_node(const Json& pod) const { return runs_on_node_ && runs_on_node_(pod); }

  // The workload this settle makes objects for. Each object made is checked against it: the
  // garbage collector only takes dependents that exist when their owner goes, so an object made
  // from a read from before the owner's deletion would stay; it is removed again and the settle
  // ends (OwnerGone).
  void made_for(const KindInfo& kind, const Json& owner);
  Json create(const KindInfo& kind, const Json& object);
  Json update(const KindInfo& kind, const Json& object);
  // Through the status subresource when the kind has one, else as a plain update.
  Json update_status(const KindInfo& kind, const Json& object);
  void remove(const KindInfo& kind, const ObjectKey& key);

 private:
  Cluster& cluster_;
  const SimulatedKinds& kinds_;
  std::atomic<long long>& writes_;
  const std::function<bool(const Json&)>& runs_on_node_;
  std::string now_;
  std::optional<KindInfo> owner_kind_;
  Json owner_;
};

struct OwnerGone : std::runtime_error {
  OwnerGone() : std::runtime_error("the workload was deleted while its objects were made") {}
};

void simulate_deployment(Simulation& sim, const ObjectKey& key);
// A Deployment whose pods the node agent runs (or that already has ReplicaSets): the deployment
// controller's ReplicaSets and rollouts. False when the deployment is simulated without them.
bool roll_out_deployment(Simulation& sim, const Json& deployment);
void simulate_replica_set(Simulation& sim, const ObjectKey& key);
// Whether the simulator runs `replica_set`: one it made for a Deployment, or one of node images.
bool simulates_replica_set(const Simulation& sim, const Json& replica_set);
void simulate_stateful_set(Simulation& sim, const ObjectKey& key);
void simulate_job(Simulation& sim, const ObjectKey& key);

// JSON readers: the value at `at` when it has the type asked for, else the fallback.
std::int64_t int_at(const Json& object, const Json::json_pointer& at, std::int64_t fallback);
std::string string_at(const Json& object, const Json::json_pointer& at, std::string fallback = {});
bool is_terminating(const Json& object);

// The controller ownerReference the built-in controllers write (controller, blockOwnerDeletion).
Json controller_ref(const Json& owner);
// Whether `object`'s controller ownerReference names `owner` (by uid).
bool controlled_by(const Json& object, const Json& owner);
// The label selector of `selector` (a metav1.LabelSelector) as list options' text.
std::string selector_text(const Json& selector);

// Stable across runs and platforms (FNV-1a), unlike std::hash: names and revisions must not move.
std::uint64_t stable_hash(std::string_view text);
// `length` characters of Kubernetes' name-suffix alphabet (rand.SafeEncodeString's) from a hash.
std::string safe_suffix(std::uint64_t hash, std::size_t length);

}  // namespace rr::apiserver_detail
