// The apply configuration a ResourceReconciler with status_write = StatusWrite::Apply sends to the
// status subresource (docs/runtime/02-resource-reconciler.md, "Status by server-side apply").
//
// It is the status the reconcile computed, whole, named by apiVersion, kind, metadata.name and
// metadata.namespace: a field the reconciler stops setting is left out, and the API server removes
// it when this manager was its only owner. One exception keeps other managers' fields theirs: a
// part of the status the reconcile left as it read it (unchanged), that this manager's last status
// apply did not own and that another manager's managedFields entry owns, is left out too, so that
// applying does not take it over (and it goes when its owner removes it). Parts are members of
// objects and the items of lists keyed as the managedFields say ("k:{...}": another controller's
// condition in a list map keyed by type); other lists are atomic. Without managedFields (nobody
// known to own anything), the whole status is sent.
//
// Light: rr::Json is only forward-declared; the work is out of line (status_apply.cpp).
#pragma once
#include <string_view>

#include "rr/core/fwd.hpp"

namespace rr {

// `original`: the object as read (with metadata.managedFields); `computed`: the object after the
// reconcile (its status is what is applied); `field_manager`: who applies. apiVersion, kind, name
// and namespace are taken from `computed` (else `original`). Malformed managedFields entries are
// ignored (then nobody is known to own what they would have named), never thrown.
Json status_apply_configuration(const Json& original, const Json& computed, std::string_view field_manager);

}  // namespace rr
