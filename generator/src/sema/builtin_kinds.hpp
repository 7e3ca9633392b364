// The runtime's built-in kinds (rr::builtin: every kind a Kubernetes 1.35 API server serves),
// read from the same schemas the runtime compiles (schemas/meta-v1.yaml and
// schemas/kubernetes-1.35/, embedded into rrgen), so a spec can name them and the backends know
// their resource names, scope, C++ types and headers.
#pragma once
#include <string_view>
#include <vector>

#include "model/model.hpp"
#include "model/reconciler.hpp"

namespace rrgen {

// The Kubernetes release whose API rr::builtin carries.
inline constexpr std::string_view kBuiltinApiRelease = "1.35";

// The model of the built-in schemas, built once (C++ namespace "k8s", as rr::builtin).
const Model& builtin_model();
// One ResolvedKind per built-in kind (builtin = true), in schema order.
const std::vector<ResolvedKind>& builtin_kinds();
// The ResolvedKind of a kind unit of any model (`builtin` as given).
ResolvedKind resolved_kind_of(const Unit& unit, bool builtin);
// Whether a spec that names `kind` without group or version means this built-in kind, as kubectl
// resolves a bare kind: the core group's when it has one ("Event" is v1's, not events.k8s.io's),
// else the group's preferred version (GA over beta over alpha, then the higher number:
// "HorizontalPodAutoscaler" is autoscaling/v2's).
bool builtin_preferred(const ResolvedKind& kind);

}  // namespace rrgen
