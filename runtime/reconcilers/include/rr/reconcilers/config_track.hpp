// Definitions of track_and_get / track_and_try_get / track_and_list (declared in config.hpp).
// They need the complete Context, so context.hpp includes this header at its end.
#pragma once
#include <optional>
#include <vector>

#include "rr/client/dynamic_api.hpp"
#include "rr/client/label_selector.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/tracker.hpp"

namespace rr {

namespace detail {
// The request being reconciled observes `ref`; no tracker, no tracking.
inline void track_for_request(Context& ctx, const TrackReference& ref) {
  if (const auto& tracker = ctx.config().tracker) tracker->track_reference(ref, ctx.request());
}

template <Object T>
TrackReference track_reference_to(const ObjectKey& key) {
  return TrackReference{std::string(ResourceTraits<T>::group), std::string(ResourceTraits<T>::kind), key.namespace_,
                        key.name, std::nullopt};
}
}  // namespace detail

template <Object T>
T track_and_get(Context& ctx, const ObjectKey& key) {
  detail::track_for_request(ctx, detail::track_reference_to<T>(key));  // before the Get: NotFound is tracked too
  return ctx.config().api().get<T>(key);
}

template <Object T>
std::optional<T> track_and_try_get(Context& ctx, const ObjectKey& key) {
  detail::track_for_request(ctx, detail::track_reference_to<T>(key));
  return ctx.config().api().try_get<T>(key);
}

template <Object T>
std::vector<T> track_and_list(Context& ctx, const ListOptions& opts) {
  // No selector tracks everything (labels.Everything()): the empty Selector matches all labels.
  detail::track_for_request(ctx, TrackReference{std::string(ResourceTraits<T>::group),
                                                std::string(ResourceTraits<T>::kind), opts.namespace_, {},
                                                opts.label_selector.empty() ? Selector{}
                                                                            : Selector::parse(opts.label_selector)});
  return ctx.config().api().list<T>(opts);
}

// The same for a dynamic object (rr::Unstructured, a duck type), addressed through `kind`.
template <DynamicObject T>
T track_and_get(Context& ctx, const KindInfo& kind, const ObjectKey& key) {
  detail::track_for_request(ctx, TrackReference{kind.gvk.group, kind.gvk.kind, key.namespace_, key.name, std::nullopt});
  return DynamicApi<T>(ctx.config().api(), kind).get(key);
}

template <DynamicObject T>
std::optional<T> track_and_try_get(Context& ctx, const KindInfo& kind, const ObjectKey& key) {
  detail::track_for_request(ctx, TrackReference{kind.gvk.group, kind.gvk.kind, key.namespace_, key.name, std::nullopt});
  return DynamicApi<T>(ctx.config().api(), kind).try_get(key);
}

template <DynamicObject T>
std::vector<T> track_and_list(Context& ctx, const KindInfo& kind, const ListOptions& opts) {
  detail::track_for_request(
      ctx, TrackReference{kind.gvk.group,
                          kind.gvk.kind,
                          opts.namespace_,
                          {},
                          opts.label_selector.empty() ? Selector{} : Selector::parse(opts.label_selector)});
  return DynamicApi<T>(ctx.config().api(), kind).list(opts);
}

}  // namespace rr
