// The pieces of a core v1 Namespace the lifecycle reads and writes (spec.finalizers, status.phase).
#pragma once
#include <string>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/core/json.hpp"

namespace rr::cluster_detail {

// The finalizer the namespace controller owns: it goes once the namespace is empty.
inline constexpr const char* namespace_content_finalizer = "kubernetes";

// Whether `kind` is the core v1 Namespace (cluster-scoped), the only kind with a lifecycle.
bool is_namespace_kind(const KindInfo& kind);

// spec.finalizers (strings only), and writing it back (the member goes when the list is empty).
std::vector<std::string> spec_finalizers_of(const Json& ns);
void set_spec_finalizers(Json& ns, const std::vector<std::string>& finalizers);

// status.phase as the namespace registry sets it: "Active" on create, "Terminating" on delete.
void set_phase(Json& ns, const char* phase);
// Terminating by phase or by deletionTimestamp (seeded namespaces may carry only one of them).
bool namespace_terminating(const Json& ns);

}  // namespace rr::cluster_detail
