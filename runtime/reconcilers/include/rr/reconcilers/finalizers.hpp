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

template <AnyObject T>
Error add_finalizer(Context& ctx, T& resource, std::string_view finalizer);
template <AnyObject T>
Error clear_finalizer(Context& ctx, T& resource, std::string_view finalizer);

bool has_finalizer(const ObjectMeta& meta, std::string_view finalizer) noexcept;

namespace detail {
// The typed helpers go through the untyped core; on success the typed object takes the server's
// finalizers, resourceVersion and generation (nothing else: the caller's pending changes stay).
// The KindInfo of a dynamic object: the request's resource type when it is that kind (it is the
// reconciled resource), else the client's discovery of the kind it names.
KindInfo finalizer_kind_of_dynamic(const Context& ctx, const GroupVersionKind& gvk);

// The untyped core over `resource` encoded by `encode` (its to_json); on success `meta` (the
// resource's metadata) takes the server's finalizers, resourceVersion and generation.
Error ensure_finalizer_encoded(Context& ctx, const KindInfo& kind, void (*encode)(Json& out, const void* resource),
                               const void* resource, ObjectMeta& meta, std::string_view finalizer, bool add);
template <AnyObject T>
void encode_resource(Json& out, const void* resource) {
  to_json(out, *static_cast<const T*>(resource));
}

template <AnyObject T>
Error ensure_finalizer_typed(Context& ctx, T& resource, std::string_view finalizer, bool add) {
  if (finalizer.empty() || has_finalizer(resource.metadata, finalizer) == add) return {};
  KindInfo kind;
  if constexpr (Object<T>) {
    kind = kind_info_of<T>();
  } else {
    try {
      kind = finalizer_kind_of_dynamic(ctx, gvk_of(resource));
    } catch (...) {
      return Error::from_current_exception();
    }
  }
  return ensure_finalizer_encoded(ctx, kind, &encode_resource<T>, &resource, resource.metadata, finalizer, add);
}
}  // namespace detail

template <AnyObject T>
Error add_finalizer(Context& ctx, T& resource, std::string_view finalizer) {
  return detail::ensure_finalizer_typed(ctx, resource, finalizer, true);
}

template <AnyObject T>
Error clear_finalizer(Context& ctx, T& resource, std::string_view finalizer) {
  return detail::ensure_finalizer_typed(ctx, resource, finalizer, false);
}

}  // namespace rr
