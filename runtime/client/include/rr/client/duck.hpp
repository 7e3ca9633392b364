// Duck types: a struct holding only the part of an object that many kinds share, its kind known
// at run time (reconciler.io's duck types; the concept is DuckObject, dynamic_object.hpp).
//
// rr::ConditionsDuck is the shape of every kind that reports status.conditions (metav1.Condition)
// and status.observedGeneration: Deployments, most CRDs. Decoding keeps every member it does not
// declare in `unknown_fields` (at the top: spec, data...; in status: the kind's own status
// fields), so encoding gives back the whole object. Writes of a duck are patches computed from
// the object as read (DynamicApi refuses create, update and update_status), so the members it
// does not know are never overwritten.
//
// A duck of another shape is any struct with `static constexpr bool rr_dynamic_kind = true;`,
// `static constexpr bool rr_duck = true;`, `std::string api_version, kind;`, an rr::ObjectMeta
// `metadata` and nlohmann to_json / from_json that keep unknown members (as these do).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rr/client/dynamic_object.hpp"
#include "rr/core/unknown_fields.hpp"

namespace rr {

struct ConditionsDuckStatus {
  std::optional<std::int64_t> observed_generation;  // JSON "observedGeneration"
  std::optional<std::vector<Condition>> conditions;
  UnknownFields unknown_fields;  // the kind's other status members
  bool operator==(const ConditionsDuckStatus&) const = default;
};

struct ConditionsDuck {
  static constexpr bool rr_dynamic_kind = true;
  static constexpr bool rr_duck = true;

  std::string api_version;
  std::string kind;
  ObjectMeta metadata;
  std::optional<ConditionsDuckStatus> status;
  UnknownFields unknown_fields;  // every other top-level member (spec, ...)
  bool operator==(const ConditionsDuck&) const = default;
};

// A JSON null status member (or status) reads as absent; a member of the wrong JSON type throws
// Json's type_error.
void to_json(Json& j, const ConditionsDuckStatus& status);
void from_json(const Json& j, ConditionsDuckStatus& status);
void to_json(Json& j, const ConditionsDuck& object);
void from_json(const Json& j, ConditionsDuck& object);

}  // namespace rr

// The verbs for this type (rr::DynamicApi<T>, rr::any_api).
#include "rr/client/dynamic_api.hpp"
