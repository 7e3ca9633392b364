// The conditions watcher: one ResourceReconciler per kind named at run time, over the
// ConditionsOnly duck. Each object that reports status.conditions gets a `Watched` condition
// (True, reason "Observed") whose message sums up its other conditions, e.g.
// "Available=True, Progressing=True"; an object without status.conditions is left alone. The
// status is written as a merge patch of status.conditions only, so nothing else of the object
// (spec, the kind's own status fields, observedGeneration) is sent or changed.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "conditions_only.hpp"
#include "rr/client/kind.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace watcher {

inline constexpr std::string_view watched_condition = "Watched";

// "apps/v1/Deployment", "v1/ConfigMap" (the core group) or "example.dev/v1/Gadget": the apiVersion,
// a slash, the Kind. Throws std::invalid_argument naming the text otherwise.
rr::GroupVersionKind parse_kind(std::string_view text);

// The other conditions of `conditions` as "Type=Status, ..." in their order ("" when none).
std::string summary_of(const std::vector<rr::Condition>& conditions);

// Sets the Watched condition (the tree of the root below).
rr::SubReconciler<ConditionsOnly> mark_watched();

// The root reconciler of one kind.
rr::Reconciler conditions_watcher(const rr::Config& config, const rr::KindInfo& kind);

}  // namespace watcher
