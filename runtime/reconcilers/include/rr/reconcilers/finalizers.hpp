// Finalizer helpers: add or clear one finalizer with a JSON merge patch carrying the
// resourceVersion as an optimistic lock ({"metadata":{"finalizers":[...],"resourceVersion":"<rv>"}}),
// sent with the *original* config's client; events FinalizerPatched / FinalizerPatchFailed on the
// resource. Afterwards the in-memory resource has the server's finalizers, resourceVersion and
// generation. An empty name, or a finalizer already in the wanted state, does nothing.
#pragma once
#include <string_view>

#include "rr/client/client.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {

// Untyped core (the resource as JSON; `kind` addresses it).
Error add_finalizer(Context& ctx, const KindInfo& kind, Json& resource, std::string_view finalizer);
Error clear_finalizer(Context& ctx, const KindInfo& kind, Json& resource, std::string_view finalizer);

template <Object T>
Error add_finalizer(Context& ctx, T& resource, std::string_view finalizer);
template <Object T>
Error clear_finalizer(Context& ctx, T& resource, std::string_view finalizer);

bool has_finalizer(const ObjectMeta& meta, std::string_view finalizer) noexcept;

}  // namespace rr
