// What the StatefulSet controller makes of one set: its revision, the pod of an ordinal and that
// pod's PersistentVolumeClaims, as kube-controller-manager names and labels them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "simulation.hpp"

namespace rr::apiserver_detail {

// One StatefulSet's spec as the controller reads it, with the API server's defaults applied.
struct StatefulSetView {
  Json set;
  std::string name;
  std::string namespace_;
  std::int64_t replicas = 1;
  std::int64_t start = 0;  // spec.ordinals.start
  bool parallel = false;   // podManagementPolicy Parallel (else OrderedReady)
  bool rolling = true;     // updateStrategy RollingUpdate (else OnDelete)
  std::int64_t partition = 0;
  bool delete_when_scaled = false;  // persistentVolumeClaimRetentionPolicy
  bool delete_when_deleted = false;
  std::string update_revision;  // <name>-<hash of spec.template>
};

StatefulSetView view_stateful_set(const Json& set);

std::string pod_name(const StatefulSetView& set, std::int64_t ordinal);
// The ordinal of a pod named <set>-<n>, or -1.
std::int64_t ordinal_of(const StatefulSetView& set, const Json& pod);
std::string revision_of(const Json& pod);

// The pod of `ordinal` at the update revision: template labels and annotations, the set's
// identity labels, hostname and subdomain, and a volume per claim template.
Json new_stateful_pod(const StatefulSetView& set, std::int64_t ordinal);

// The claims of `ordinal` (one per spec.volumeClaimTemplates entry), unsaved and without status.
std::vector<Json> new_claims(const StatefulSetView& set, std::int64_t ordinal);
// The ownerReferences a claim should carry: the set's when it goes with the set, the pod's when
// it goes with a scaled-down pod (`condemned_pod`), none when retained; other owners kept.
Json claim_owner_refs(const StatefulSetView& set, const Json& claim, const Json* condemned_pod);
// A claim as the volume binder leaves it: Bound, with the requested capacity.
Json bound_claim_status(const Json& claim);

}  // namespace rr::apiserver_detail
