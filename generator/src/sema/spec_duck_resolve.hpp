// A duck resource (`resource: {duck: ..., kinds: [...]}`) resolved: which runtime duck the name
// means, and each default kind resolved and checked to carry what the duck reads, against the
// given CRDs' and the built-in kinds' schemas (docs/reconciler-spec.md#duck-resources).
#pragma once
#include <functional>
#include <optional>

#include "load/spec.hpp"
#include "model/model.hpp"
#include "model/reconciler.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

// The spec's kind table (spec_resolve.cpp): a reference to its kind, or nullopt (reported).
using ResolveKindFn = std::function<std::optional<ResolvedKind>(const KindRef&)>;

// Resolves `duck`'s kinds with `resolve` and checks that each carries what the duck reads
// (spec-unknown-duck, spec-duck-kind); nullopt when anything was reported. `crds` is the model of
// the given CRDs.
std::optional<ResolvedDuck> resolve_duck(const SpecDuck& duck, const Model& crds, const ResolveKindFn& resolve,
                                         Diagnostics& diags);

// The ResolvedKind that stands for the duck as the reconciled resource: its C++ type and header,
// no group, version or plural; namespaced when every kind is; a status subresource.
ResolvedKind duck_resource(const ResolvedDuck& duck);

// Reports what a duck resource does not support (spec-duck-unsupported: child and childSet
// steps, webhooks) and a missing `namespace:` (spec-missing-namespace).
void check_duck_spec(const ReconcilerSpec& spec, Diagnostics& diags);

}  // namespace rrgen
