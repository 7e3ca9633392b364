// Generic access to the parts of a generated kind the reconcilers manage, standing in for the
// reflection reconciler.io uses: the status (an std::optional<S> member `status`), its
// `conditions` (std::optional<std::vector<rr::Condition>>) and `observed_generation`
// (std::optional<std::int64_t>), deletion and existence, and the controller owner reference.
//
// A typed object's deep copy is its plain copy. Two statuses are "the same" when their
// serialisations are (reconciler.io compares with equality.Semantic.DeepEqual, for which a
// change only in fields that do not serialise does not count, and nil equals empty).
#pragma once
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "rr/client/dynamic_object.hpp"
#include "rr/client/kind.hpp"
#include "rr/core/fwd.hpp"
#include "rr/core/json_writer.hpp"
#include "rr/core/meta.hpp"
#include "rr/core/optional.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {

namespace object_detail {
template <class M, class V>  // M is std::optional<V> or rr::Optional<V> (generated types' members)
concept OptionalOf = AnyOptional<std::remove_cvref_t<M>> &&
    std::same_as<typename std::remove_cvref_t<M>::value_type, V>;
}  // namespace object_detail

// T carries Kubernetes object metadata.
template <class T>
concept HasObjectMeta = requires(T& t) {
  requires std::same_as<std::remove_cvref_t<decltype(t.metadata)>, ObjectMeta>;
};

// T has an optional `status` member.
template <class T>
concept HasStatus = requires(T& t) { t.status; }
&&AnyOptional<std::remove_cvref_t<decltype(std::declval<T&>().status)>>;

template <HasStatus T>
using status_type_t = typename std::remove_cvref_t<decltype(std::declval<T&>().status)>::value_type;

template <class T>
concept HasConditions = HasStatus<T> && requires(status_type_t<T>& s) {
  requires object_detail::OptionalOf<decltype(s.conditions), std::vector<Condition>>;
};

template <class T>
concept HasObservedGeneration = HasStatus<T> && requires(status_type_t<T>& s) {
  requires object_detail::OptionalOf<decltype(s.observed_generation), std::int64_t>;
};

// --- Status -----------------------------------------------------------------------------------

template <HasStatus T>
status_type_t<T>& ensure_status(T& object) {
  if (!object.status) object.status.emplace();
  return *object.status;
}

template <HasConditions T>
std::vector<Condition>& ensure_conditions(T& object) {
  auto& status = ensure_status(object);
  if (!status.conditions) status.conditions.emplace();
  return *status.conditions;
}

// nullptr when there is no status or no conditions.
template <HasConditions T>
const std::vector<Condition>* conditions_of(const T& object) noexcept {
  return object.status && object.status->conditions ? &*object.status->conditions : nullptr;
}
template <HasConditions T>
std::vector<Condition>* conditions_of(T& object) noexcept {
  return object.status && object.status->conditions ? &*object.status->conditions : nullptr;
}

// status.observedGeneration = metadata.generation (the status is created when absent).
template <HasObservedGeneration T>
void set_observed_generation(T& object) {
  ensure_status(object).observed_generation = object.metadata.generation;
}

// Compact JSON of a generated value ("" for an absent status).
template <class V>
std::string serialise_json(const V& value) {
  static_assert(requires(JsonWriter& w) { value.rr_encode(w); },
                "status comparison needs a generated type (with rr_encode)");
  std::string out;
  JsonWriter writer(out);
  value.rr_encode(writer);
  return out;
}

// Whether two JSON texts are the same document once nulls, empty objects and empty arrays are
// dropped (Go's nil == empty); "" stands for an absent document.
bool same_json_document(std::string_view a, std::string_view b);

namespace object_detail {
// Compact JSON text of *value through `encode` (nlohmann's to_json of its type), out of line so
// that this header needs rr::Json only declared.
std::string dumped(void (*encode)(Json& out, const void* value), const void* value);
template <class V>
void encode_erased(Json& out, const void* value) {
  to_json(out, *static_cast<const V*>(value));
}
template <class V>
std::string dumped(const V& value) {
  return dumped(&encode_erased<V>, &value);
}
// same_json_document of two JSON members (nullptr: absent).
bool same_json_member(const Json* a, const Json* b);
}  // namespace object_detail

// A generated status serialises with its rr_encode; a duck's status (no rr_encode) through its
// nlohmann codec.
template <HasStatus T>
bool same_status(const T& a, const T& b) {
  if constexpr (requires(JsonWriter & w) { a.status->rr_encode(w); }) {
    return same_json_document(a.status ? serialise_json(*a.status) : std::string(),
                              b.status ? serialise_json(*b.status) : std::string());
  } else {
    return same_json_document(a.status ? object_detail::dumped(*a.status) : std::string(),
                              b.status ? object_detail::dumped(*b.status) : std::string());
  }
}

// An object whose status is a JSON member, not a struct (rr::Unstructured): the reconcilers
// compare and write it, but manage neither its conditions nor its observedGeneration.
template <class T>
concept HasJsonStatus = DynamicObject<T> && requires(const T& t) {
  { t.find(std::string_view("status")) } -> std::same_as<const Json*>;
};

template <HasJsonStatus T>
bool same_status(const T& a, const T& b) {
  return object_detail::same_json_member(a.find("status"), b.find("status"));
}

// For each original condition, the first proposed condition of the same type gets the original
// lastTransitionTime back when its status, reason, message and observedGeneration are unchanged,
// so a status that did not otherwise change is not rewritten because the time moved.
void restore_last_transition_times(std::vector<Condition>& proposed, const std::vector<Condition>& original);

// --- Lifecycle --------------------------------------------------------------------------------

inline bool is_terminating(const ObjectMeta& meta) noexcept { return meta.deletion_timestamp.has_value(); }
template <HasObjectMeta T>
bool is_terminating(const T& object) noexcept {
  return is_terminating(object.metadata);
}

// "Exists" as reconciler.io means it: the API server stamped a creationTimestamp.
inline bool exists_on_server(const ObjectMeta& meta) noexcept { return !meta.creation_timestamp.str().empty(); }

// --- Owner references -------------------------------------------------------------------------

// The owner reference with controller=true, nullptr when none.
const OwnerReference* controller_of(const ObjectMeta& meta) noexcept;
// metav1.IsControlledBy: the controller reference points at the owner's UID.
bool is_controlled_by(const ObjectMeta& object, const ObjectMeta& owner) noexcept;
// controllerutil's upsert of a controller reference: an existing controller reference to another
// object (same group, kind and name — not UID, as controllerutil compares) is an AlreadyOwned
// error; a reference to the same object is replaced, otherwise `ref` is appended.
Error upsert_controller_reference(ObjectMeta& object, OwnerReference ref);

// "testing.rrgen.dev/v1, Kind=TestChild" (the form Go's GroupVersionKind prints, for logs).
std::string gvk_text(const GroupVersionKind& gvk);

}  // namespace rr
