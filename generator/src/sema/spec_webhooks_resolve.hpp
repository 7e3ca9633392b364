// Resolves the spec's `webhooks:` against the reconciled kind's CRD: the served versions a
// conversion webhook converts between and its hub, the admission webhooks' paths and names as
// kubebuilder spells them. Reports webhooks on a built-in kind (spec-webhook-builtin), conversion
// with fewer than two served versions (spec-conversion-versions) and an unknown hub
// (spec-unknown-hub).
#pragma once
#include <optional>

#include "load/spec.hpp"
#include "model/model.hpp"
#include "model/reconciler.hpp"
#include "support/diagnostics.hpp"

namespace rrgen {

std::optional<ResolvedWebhooks> resolve_webhooks(const SpecWebhooks& webhooks, const ResolvedKind& resource,
                                                 const Model& crds, Diagnostics& diags);

}  // namespace rrgen
