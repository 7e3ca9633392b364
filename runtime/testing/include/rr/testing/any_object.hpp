// An object in a test table (a given, an expected create/update, the sub-reconciler resource):
// any generated kind, held as its JSON document with its KindInfo, so one list can mix kinds.
// A typed object converts implicitly:
//
//   .given_objects = {resource, child_config_map},
//
// and carries its kind's admission (apply_defaults + validate) for the in-memory cluster.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/fwd.hpp"
#include "rr/testing/json_value.hpp"

namespace rr::testing {

// Defaulting and validation of a kind on its JSON document: rr::Cluster::AdmitFn (the same type,
// spelled here so that this header needs neither the cluster nor nlohmann).
using AdmitFn = std::function<std::vector<FieldError>(Json& object)>;

namespace detail {
// `object` := the typed object `typed` encoded by `codec` (a fresh document, out of line).
void encode_over(Json& object, const client_detail::ObjectCodec& codec, const void* typed);

// Decodes the typed object from `object`, defaults and validates it, and encodes it back.
template <Object T>
std::vector<FieldError> admit_typed(Json& object) {
  T typed = from_object_json<T>(object);
  typed.apply_defaults();
  auto findings = typed.validate();
  encode_over(object, client_detail::codec_of<T>, &typed);
  return findings;
}
}  // namespace detail

// Defaulting and validation of a generated kind, as Cluster::register_kind<T>() installs it.
template <Object T>
AdmitFn admission_of() {
  if constexpr (requires(T& t) {
                  t.apply_defaults();
                  t.validate();
                }) {
    return &detail::admit_typed<T>;
  } else {
    return {};
  }
}

class AnyObject {
 public:
  template <Object T>
  AnyObject(const T& object)  // NOLINT(google-explicit-constructor): tables list objects directly
      : AnyObject(client_detail::codec_of<T>, &object, kind_info_of<T>(), admission_of<T>()) {}
  // An unstructured object; `kind` says how to address it.
  AnyObject(KindInfo kind, JsonValue object, AdmitFn admit = {})
      : json_(std::move(object)), kind_(std::move(kind)), admit_(std::move(admit)) {}

  const Json& json() const noexcept { return json_.get(); }
  Json& json() noexcept { return json_.get(); }
  const KindInfo& kind() const noexcept { return kind_; }
  const AdmitFn& admit() const noexcept { return admit_; }
  ObjectKey key() const { return key_of(json_.get()); }

  template <Object T>
  T as() const {
    return from_object_json<T>(json_.get());
  }

 private:
  // A typed object, encoded through its kind's out-of-line to_json.
  AnyObject(const client_detail::ObjectCodec& codec, const void* object, KindInfo kind, AdmitFn admit);

  JsonValue json_;
  KindInfo kind_;
  AdmitFn admit_;
};

}  // namespace rr::testing
