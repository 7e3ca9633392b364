// The objects the deployment and replicaset controllers make, as kube-controller-manager makes
// them: the pod-template-hash, `<deployment>-<hash>` ReplicaSets carrying the revision
// annotations, and `<replicaset>-<5 chars>` Pods from a ReplicaSet's template.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "simulation.hpp"

namespace rr::apiserver_detail {

inline constexpr const char* pod_template_hash_label = "pod-template-hash";
inline constexpr const char* revision_annotation = "deployment.kubernetes.io/revision";
inline constexpr const char* desired_replicas_annotation = "deployment.kubernetes.io/desired-replicas";
inline constexpr const char* max_replicas_annotation = "deployment.kubernetes.io/max-replicas";

// FNV-32a, as hash/fnv's New32a.
std::uint32_t fnv32a(std::string_view text, std::uint32_t hash = 2166136261U);
// rand.SafeEncodeString: each character of `text` mapped onto the name-suffix alphabet.
std::string safe_encode(std::string_view text);
// controller.ComputeHash: the FNV-32a of the template (kube hashes Go's %#v printing of it, this
// its canonical JSON), then the collision count's 4 little-endian bytes when there is one, the
// sum's decimal digits safe-encoded. Stable across runs: a ReplicaSet's name must not move.
std::string pod_template_hash(const Json& pod_template, std::optional<std::uint32_t> collision_count = {});

// The template with its pod-template-hash label removed, and without the members Go's omitempty
// leaves out (false, null, "", {} and [] after their own are gone): EqualIgnoreHash compares
// these, so a template read back with explicit defaults (`tty: false`, as `kubectl rollout undo`
// copies it from a ReplicaSet) is still the same template.
Json template_without_hash(Json pod_template);
// A pod as `owner`'s template would make it, without name or owner: what the node predicate reads.
Json pod_of_template(const Json& owner);

// The deployment's rolling-update bounds, resolved as the controller does (surge rounded up,
// unavailable down; both 0 makes unavailable 1). Recreate: 0 and 0.
struct RolloutBounds {
  std::int64_t max_surge = 0, max_unavailable = 0;
};
RolloutBounds rollout_bounds(const Json& deployment);

// The new ReplicaSet for `deployment`'s template (getNewReplicaSet): named `<deployment>-<hash>`,
// labelled and selecting by the hash, controlled by the deployment, with the revision and replica
// annotations.
Json new_replica_set(const Json& deployment, const std::string& hash, std::int64_t revision, std::int64_t replicas);
// A pod of `replica_set` (GetPodFromTemplate): generateName `<replicaset>-`, its controller ref.
Json new_replica_set_pod(const Json& replica_set);

std::int64_t revision_of_replica_set(const Json& replica_set);

}  // namespace rr::apiserver_detail
