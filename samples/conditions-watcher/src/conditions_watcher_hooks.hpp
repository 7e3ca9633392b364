// The hooks of the conditions watcher (reconciler.yaml): its one step, MarkWatched, upserts a
// `Watched` condition (True, reason "Observed") whose message sums up the object's other
// conditions, e.g. "Available=True, Progressing=True"; an object without status.conditions is
// left alone. The generated root writes the status as a merge patch of status.conditions only, so
// nothing else of the object (spec, the kind's own status fields, observedGeneration) is sent or
// changed.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "conditions_only.hpp"
#include "conditions_watcher_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"

namespace watcher {

inline constexpr std::string_view watched_condition = "Watched";

// The other conditions of `conditions` as "Type=Status, ..." in their order ("" when none).
std::string summary_of(const std::vector<rr::Condition>& conditions);

struct ConditionsWatcherHooks {
  // Sets the Watched condition on an object that reports conditions.
  rr::Error mark_watched_sync(rr::Context& ctx, ConditionsOnly& conditions_only) const;
};

}  // namespace watcher
