// An object in a test table (a given, an expected create/update, the sub-reconciler resource):
// any generated kind, held as its JSON document with its KindInfo, so one list can mix kinds.
// A typed object converts implicitly:
//
//   .given_objects = {resource, child_config_map},
//
// and carries its kind's admission (apply_defaults + validate) for the in-memory cluster.
#pragma once
#include <string>

#include "rr/client/client.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::testing {

// Defaulting and validation of a generated kind, as Cluster::register_kind<T>() installs it.
template <Object T>
Cluster::AdmitFn admission_of() {
  if constexpr (requires(T& t) {
                  t.apply_defaults();
                  t.validate();
                }) {
    return [](Json& object) {
      T typed = from_object_json<T>(object);
      typed.apply_defaults();
      auto findings = typed.validate();
      object = to_object_json(typed);
      return findings;
    };
  } else {
    return {};
  }
}

class AnyObject {
 public:
  template <Object T>
  AnyObject(const T& object)  // NOLINT(google-explicit-constructor): tables list objects directly
      : json_(to_object_json(object)), kind_(kind_info_of<T>()), admit_(admission_of<T>()) {}
  // An unstructured object; `kind` says how to address it.
  AnyObject(KindInfo kind, Json object, Cluster::AdmitFn admit = {})
      : json_(std::move(object)), kind_(std::move(kind)), admit_(std::move(admit)) {}

  const Json& json() const noexcept { return json_; }
  Json& json() noexcept { return json_; }
  const KindInfo& kind() const noexcept { return kind_; }
  const Cluster::AdmitFn& admit() const noexcept { return admit_; }
  ObjectKey key() const { return key_of(json_); }

  template <Object T>
  T as() const {
    return from_object_json<T>(json_);
  }

 private:
  Json json_;
  KindInfo kind_;
  Cluster::AdmitFn admit_;
};

}  // namespace rr::testing
