// Objects whose kind is known only at run time: rr::Unstructured (unstructured.hpp) and duck
// types (duck.hpp), as opposed to generated kinds, whose kind ResourceTraits gives at compile
// time (the Object concept of client.hpp).
//
// A dynamic object declares `static constexpr bool rr_dynamic_kind = true;`, carries its own
// `api_version` and `kind` strings and an rr::ObjectMeta `metadata`, and converts to and from
// rr::Json (nlohmann's to_json / from_json, found by ADL, declared here and defined out of line;
// this header needs rr::Json only declared). A duck also declares
// `static constexpr bool rr_duck = true;`: it holds only part of an object (reconciler.io's duck
// types), so the client verbs that send a whole object (create, update, update_status) refuse it
// and its writes are patches (dynamic_api.hpp).
//
// Included by client.hpp before the Client class; only light headers here.
#pragma once
#include <concepts>
#include <string>
#include <type_traits>

#include "rr/client/kind.hpp"
#include "rr/client/object_key.hpp"
#include "rr/core/fwd.hpp"
#include "rr/core/meta.hpp"

namespace rr {

template <class T>
concept DynamicObject = requires {
  requires T::rr_dynamic_kind;
}
&&requires(T& t) {
  requires std::same_as<std::remove_cvref_t<decltype(t.metadata)>, ObjectMeta>;
  requires std::same_as<std::remove_cvref_t<decltype(t.api_version)>, std::string>;
  requires std::same_as<std::remove_cvref_t<decltype(t.kind)>, std::string>;
};

template <class T>
concept DuckObject = DynamicObject<T> && requires {
  requires T::rr_duck;
};

// The GroupVersionKind a dynamic object names (throws std::invalid_argument on a bad apiVersion).
template <DynamicObject T>
GroupVersionKind gvk_of(const T& object) {
  return GroupVersionKind::from(object.api_version, object.kind);
}

template <DynamicObject T>
ObjectKey key_of(const T& object) {
  return {object.metadata.namespace_, object.metadata.name};
}

template <DynamicObject T, class J = Json>
J to_object_json(const T& object) {
  J j;
  to_json(j, object);
  return j;
}

template <DynamicObject T>
T from_object_json(const Json& j) {
  T object;
  from_json(j, object);
  return object;
}

}  // namespace rr
