// What the harness records besides whole objects, and the builders tests use to expect them
// (reconciler.io's PatchRef, DeleteRef, DeleteCollectionRef, Event and TrackRequest).
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/apply.hpp"
#include "rr/client/client.hpp"
#include "rr/client/options.hpp"
#include "rr/core/fwd.hpp"
#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/tracker.hpp"

namespace rr::testing {

// A patch as sent. `kind` holds the Kind (reconciler.io's action "Resource" field holds the Kind
// too, Q12). The patch bytes must match exactly; patches the runtime creates serialise with
// sorted keys, so they are deterministic.
struct PatchRef {
  std::string group{};
  std::string kind{};
  std::string namespace_{};
  std::string name{};
  std::string subresource{};  // "" or "status"
  PatchType patch_type = PatchType::Merge;
  std::string patch{};
  bool operator==(const PatchRef&) const = default;
};

// A server-side apply as sent (reconciler.io's ExpectApplies): PATCH with
// application/apply-patch+yaml, its field manager and force, and the configuration. The
// configuration is compared as JSON (member order and spacing do not matter); text that is not
// JSON is compared as text. Applies are recorded here, not among the patches.
struct ApplyRef {
  std::string group{};
  std::string kind{};
  std::string namespace_{};
  std::string name{};
  std::string subresource{};  // "" or "status"
  std::string field_manager{};
  bool force = false;
  std::string configuration{};  // the body, JSON text
  bool operator==(const ApplyRef&) const = default;
};

struct DeleteRef {
  std::string group{};
  std::string kind{};
  std::string namespace_{};
  std::string name{};
  bool operator==(const DeleteRef&) const = default;
};

// Selectors are compared in their canonical text form ("" = everything).
struct DeleteCollectionRef {
  std::string group{};
  std::string kind{};
  std::string namespace_{};
  std::string label_selector{};
  std::string field_selector{};
  bool operator==(const DeleteCollectionRef&) const = default;
};

// An event, identified by the object it is about (apiVersion, kind, namespace, name); compared
// exactly.
struct Event {
  std::string api_version{};
  std::string kind{};
  std::string namespace_{};
  std::string name{};
  std::string type{};
  std::string reason{};
  std::string message{};
  bool operator==(const Event&) const = default;
};

// The tracked side of a track: by name, or (selector non-empty) by label selector.
struct TrackedRef {
  std::string group{};
  std::string kind{};
  std::string namespace_{};
  std::string name{};
  std::string selector{};  // canonical selector text, e.g. "app=web"
  bool operator==(const TrackedRef&) const = default;
};

struct TrackRequest {
  TrackedRef tracked{};
  ObjectKey by{};  // the observer: the resource being reconciled
  bool operator==(const TrackRequest&) const = default;
};

// --- Builders ---

template <Object T>
DeleteRef delete_ref_of(const T& object) {
  return {std::string(ResourceTraits<T>::group), std::string(ResourceTraits<T>::kind), object.metadata.namespace_,
          object.metadata.name};
}

template <Object T>
Event new_event(const T& regarding, std::string_view type, std::string reason, std::string message) {
  return {std::string(ResourceTraits<T>::api_version),
          std::string(ResourceTraits<T>::kind),
          regarding.metadata.namespace_,
          regarding.metadata.name,
          std::string(type),
          std::move(reason),
          std::move(message)};
}

namespace refs_detail {
// The compact JSON text of a configuration, through its type-erased encoder (apply.hpp).
std::string encoded_apply(const void* config, void (*encode)(Json& out, const void* config));
// The JSON text of the whole status of an object as a ResourceReconciler applies it
// (rr::status_apply_configuration, with no managedFields to leave anything out).
std::string encoded_status_apply(const void* object, const client_detail::ObjectCodec& codec,
                                 std::string_view field_manager);
}  // namespace refs_detail

// The apply of a generated apply configuration (<kind>_apply.hpp) with this field manager and
// force, as ApplyingChildReconciler and Client::apply send it; subresource "status" for
// Client::apply_status.
template <class A>
  requires requires { typename A::object_type; }
ApplyRef new_apply(const A& config, std::string field_manager, bool force = true, std::string subresource = {}) {
  using C = typename A::object_type;
  return {std::string(ResourceTraits<C>::group),
          std::string(ResourceTraits<C>::kind),
          config.metadata.namespace_.value_or(std::string()),
          config.metadata.name.value_or(std::string()),
          std::move(subresource),
          std::move(field_manager),
          force,
          refs_detail::encoded_apply(&config, &client_detail::encode_apply_erased<A>)};
}

// The status apply of a ResourceReconciler with status_write = StatusWrite::Apply that computed
// `resource`'s status (reconciler.io has no such expectation; the name follows new_apply): its
// whole status with apiVersion, kind, name and namespace, applied to the status subresource by
// `field_manager` (the reconciler's, by default the kind in lower case) with force. This is what the
// reconciler sends when the resource as read names no other manager's status fields; with such
// fields carried unchanged, write the ApplyRef (or new_apply of a <Kind>Apply) without them.
template <Object T>
ApplyRef new_status_apply(const T& resource, std::string field_manager, bool force = true) {
  return {std::string(ResourceTraits<T>::group),
          std::string(ResourceTraits<T>::kind),
          resource.metadata.namespace_,
          resource.metadata.name,
          "status",
          field_manager,
          force,
          refs_detail::encoded_status_apply(&resource, client_detail::codec_of<T>, field_manager)};
}

// The same for an object whose kind is known at run time (rr::Unstructured, a duck type).
template <DynamicObject T>
DeleteRef delete_ref_of(const T& object) {
  return {gvk_of(object).group, object.kind, object.metadata.namespace_, object.metadata.name};
}

template <DynamicObject T>
Event new_event(const T& regarding, std::string_view type, std::string reason, std::string message) {
  return {regarding.api_version,   regarding.kind,    regarding.metadata.namespace_,
          regarding.metadata.name, std::string(type), std::move(reason),
          std::move(message)};
}

// `by` tracks `tracked` by name.
template <Object Tracked, Object By>
TrackRequest new_track_request(const Tracked& tracked, const By& by) {
  return {{std::string(ResourceTraits<Tracked>::group),
           std::string(ResourceTraits<Tracked>::kind),
           tracked.metadata.namespace_,
           tracked.metadata.name,
           {}},
          {by.metadata.namespace_, by.metadata.name}};
}

// create_track_request(group, kind, ns, name).by(ns, name)
struct TrackRequestBuilder {
  TrackedRef tracked{};
  TrackRequest by(std::string namespace_, std::string name) const {
    return {tracked, {std::move(namespace_), std::move(name)}};
  }
};
TrackRequestBuilder create_track_request(std::string group, std::string kind, std::string namespace_, std::string name);
// Tracks every object of the kind matching `selector` (in `namespace_`, "" = any).
TrackRequestBuilder create_selector_track_request(std::string group, std::string kind, std::string namespace_,
                                                  std::string selector);

// --- Conversions the recorders and comparisons use ---

Event event_from(const rr::Event& event);
TrackRequest track_request_from(const TrackReference& ref, const ObjectKey& observer);
// The reference a given track seeds the tracker with (selector text parsed).
TrackReference track_reference_of(const TrackedRef& tracked);
// Selector text in canonical form; text that does not parse is kept as it is.
std::string canonical_label_selector(std::string_view text);
std::string canonical_field_selector(std::string_view text);

// JSON forms, for the diff and the "not observed" messages.
Json as_json(const PatchRef& ref);
Json as_json(const ApplyRef& ref);  // the configuration parsed when it is JSON
Json as_json(const DeleteRef& ref);
Json as_json(const DeleteCollectionRef& ref);
Json as_json(const Event& event);
Json as_json(const TrackRequest& request);  // selectors canonicalised

}  // namespace rr::testing

// Instantiated once in rr_testing (the tables' lists, copied and destroyed in every test unit).
extern template class std::vector<rr::testing::PatchRef>;
extern template class std::vector<rr::testing::ApplyRef>;
extern template class std::vector<rr::testing::DeleteRef>;
extern template class std::vector<rr::testing::DeleteCollectionRef>;
extern template class std::vector<rr::testing::Event>;
extern template class std::vector<rr::testing::TrackRequest>;
