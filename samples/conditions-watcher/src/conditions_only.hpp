// ConditionsOnly: the duck type the watcher reconciles, written the way a user writes one. It
// holds status.conditions and nothing else: status.observedGeneration stays an unknown member,
// because the watcher does not own the status of the kinds it watches (rr::ConditionsDuck would
// have its ResourceReconciler write observedGeneration). Everything it does not declare is kept
// in unknown_fields, so encoding gives back the object as read.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "rr/client/dynamic_object.hpp"
#include "rr/core/unknown_fields.hpp"

namespace watcher {

struct ConditionsOnlyStatus {
  std::optional<std::vector<rr::Condition>> conditions;
  rr::UnknownFields unknown_fields;
  bool operator==(const ConditionsOnlyStatus&) const = default;
};

struct ConditionsOnly {
  static constexpr bool rr_dynamic_kind = true;  // its kind is known at run time
  static constexpr bool rr_duck = true;          // a part of the object: writes are patches

  std::string api_version;
  std::string kind;
  rr::ObjectMeta metadata;
  std::optional<ConditionsOnlyStatus> status;
  rr::UnknownFields unknown_fields;
  bool operator==(const ConditionsOnly&) const = default;
};

void to_json(rr::Json& j, const ConditionsOnlyStatus& status);
void from_json(const rr::Json& j, ConditionsOnlyStatus& status);
void to_json(rr::Json& j, const ConditionsOnly& object);
void from_json(const rr::Json& j, ConditionsOnly& object);

}  // namespace watcher
