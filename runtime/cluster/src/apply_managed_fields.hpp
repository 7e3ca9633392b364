// metadata.managedFields: who owns which fields of an object, how writes move that ownership, and
// the 409 an apply gets for fields someone else owns (k8s.io/apimachinery managedfields/internal
// and structured-merge-diff's merge.Updater, on schemaless JSON).
#pragma once
#include <map>
#include <optional>
#include <string>

#include "apply_field_set.hpp"
#include "apply_walk.hpp"
#include "rr/client/api_error.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// What tells two entries apart (BuildManagerIdentifier): an applier is one manager whatever
// version it applies, an updater is one per apiVersion; time never counts.
struct ManagerId {
  std::string manager;
  std::string operation;    // "Apply" or "Update"
  std::string api_version;  // Update entries only
  std::string subresource;  // "" or "status"
  auto operator<=>(const ManagerId&) const = default;
};

struct ManagerFields {
  FieldSet fields;
  std::string api_version;
  std::string time;  // RFC 3339
  bool operator==(const ManagerFields&) const = default;
};

using ManagedFields = std::map<ManagerId, ManagerFields>;

ManagerId applier(std::string manager, std::string subresource);
ManagerId updater(std::string manager, std::string api_version, std::string subresource);

// metadata.managedFields of `object`; nullopt when the member is there but not a list of entries
// with FieldsV1. Entries that are exactly {} are dropped: `managedFields: [{}]` is how a client
// clears them.
std::optional<ManagedFields> decode_managed_fields(const Json& object);
// Writes metadata.managedFields in the API server's order (operation, time, manager,
// apiVersion, subresource), or removes the member when nobody owns anything.
void encode_managed_fields(Json& object, const ManagedFields& managed);

// The fields a write of the main resource or of /status tracks: never the ones the server owns
// (apiVersion, kind, metadata.name, .uid, .resourceVersion, ...: the stripped set), and with the
// status subresource on, only status for /status and everything but status for the main resource.
struct FieldScope {
  bool has_status = false;
  bool status_subresource = false;
  bool tracks(const FieldPath& path) const;
  FieldSet of(const FieldSet& fields) const;
  Comparison of(const Comparison& change) const;
};

// The fields each other manager owns that `change` added or modified.
using Conflicts = std::map<ManagerId, FieldSet>;
Conflicts conflicts_with(const ManagedFields& managed, const ManagerId& current, const Comparison& change);

// Moves ownership after `change` by `current`: the other managers lose what was removed and what
// `change` added or modified (what an apply with force takes over, what any update takes), and
// managers left with nothing go.
void transfer_ownership(ManagedFields& managed, const ManagerId& current, const Comparison& change);

// 409 Conflict, reason Conflict, one FieldManagerConflict cause per field, with the API server's
// message: Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using v1: .spec.replicas
Status apply_conflict(const Conflicts& conflicts);

}  // namespace rr::cluster_detail
