// The stash example of reconciler.io's README (projectriff's streaming/processor_reconciler.go):
// one sub-reconciler loads the processor image from the "processor" ConfigMap of the system
// namespace and stashes it; a later one, in the same request, takes it from the stash.
//
//   ProcessorReconciler = ResourceReconciler<Processor>{
//       reconciler: Sequence{ProcessorSyncImage (ConfigMap → stash), ProcessorApplyImage (stash → status.image)}}
#pragma once
#include <string>
#include <string_view>

#include "fnsample/v1/processor.hpp"
#include "rr/reconcilers/conditions.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/stash.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace fnsample {

using v1::Processor;

inline constexpr std::string_view processor_config_map = "processor";
inline constexpr std::string_view processor_image_key = "processorImage";

// The stash slot the two sub-reconcilers share (key "fnsample:processor-image").
const rr::Stasher<std::string>& processor_image_stash();

// Just Ready: True once status.image is set.
const rr::ConditionSet& processor_conditions();

rr::Reconciler ProcessorReconciler(const rr::Config& config, std::string system_namespace);

// track_and_get's the "processor" ConfigMap of `system_namespace` and stashes data["processorImage"];
// a missing ConfigMap or key is an error (tracked all the same).
rr::SubReconciler<Processor> ProcessorSyncImage(std::string system_namespace);

// status.image from the stash (retrieve_or_die: running without ProcessorSyncImage before it is
// a wiring mistake, not a state of the world).
rr::SubReconciler<Processor> ProcessorApplyImage();

}  // namespace fnsample
