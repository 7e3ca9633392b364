// Resolves a reconciler spec's kind references against the given CRDs and the runtime's built-in
// kinds, checks what needs the kinds to be known (owner references across scopes, a status
// subresource for conditions), and fills the model's ResolvedSpec (model/reconciler.hpp) every
// backend reads: a copy of every fact of the written spec, so it does not point into it.
#pragma once
#include <optional>
#include <string>

#include "support/diagnostics.hpp"
#include "model/model.hpp"
#include "model/reconciler.hpp"
#include "load/spec.hpp"

namespace rrgen {

// `crds` is the model of the CRDs (and OpenAPI documents) given with the spec; the built-in kinds
// come from builtin_kinds(). A kind both define resolves to the one in `crds`. Returns nullopt
// when anything was reported as an error.
std::optional<ResolvedSpec> resolve_spec(const ReconcilerSpec& spec, const Model& crds, Diagnostics& diags);

// How messages name a kind: "apps/v1/Deployment", "v1/ConfigMap" (the core group has no prefix).
std::string kind_ref_text(const ResolvedKind& kind);

}  // namespace rrgen
