// The runtime's built-in kinds (rr::builtin: ConfigMap, Secret, Service, Deployment, Lease ...),
// read from the same schemas/*.yaml the runtime compiles (embedded into rrgen), so a spec can
// name them and the backends know their resource names, scope, C++ types and headers.
#pragma once
#include <vector>

#include "model/model.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

// The model of the built-in schemas, built once (C++ namespace "k8s", as rr::builtin).
const Model& builtin_model();
// One ResolvedKind per built-in kind (builtin = true), in schema order.
const std::vector<ResolvedKind>& builtin_kinds();
// The ResolvedKind of a kind unit of any model (`builtin` as given).
ResolvedKind resolved_kind_of(const Unit& unit, bool builtin);

}  // namespace rrgen
