// The Function reconciler of reconciler.io's README (projectriff's build/function_reconciler.go):
// a Function is built from git into an image by a child Image (a kpack-like build).
//
//   FunctionReconciler = ResourceReconciler<Function>{
//       conditions: Ready <- ImageResolved, ImageReady
//       reconciler: Sequence{
//           FunctionTargetImageReconciler  (sync: spec.image, or the namespace default → status.targetImage)
//           FunctionChildImageReconciler   (child: Image "<fn>-image" tagged status.targetImage)
//       }}
#pragma once
#include <string>
#include <string_view>

#include "fnsample/v1/function.hpp"
#include "fnsample/v1alpha1/image.hpp"
#include "rr/reconcilers/conditions.hpp"
#include "rr/reconcilers/root.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace fnsample {

using v1::Function;
using v1alpha1::Image;

// Label put on the child Image: the name of the Function it builds.
inline constexpr std::string_view function_label_key = "build.example.rrgen.dev/function";
// The ConfigMap (in the Function's namespace) with the registry prefix for Functions without
// spec.image, under default_image_prefix_key.
inline constexpr std::string_view function_build_config_map = "function-build";
inline constexpr std::string_view default_image_prefix_key = "defaultImagePrefix";

inline constexpr std::string_view condition_image_resolved = "ImageResolved";
inline constexpr std::string_view condition_image_ready = "ImageReady";

// Ready follows ImageResolved and ImageReady.
const rr::ConditionSet& function_conditions();

// The child's fixed name, "<function>-image". A fixed name (rather than generateName) makes an
// Image of that name that the Function does not own a conflict the reconciler must report.
std::string function_image_name(const Function& function);

rr::Reconciler FunctionReconciler(const rr::Config& config);

// status.targetImage = spec.image, or "<defaultImagePrefix>/<name>" from the function-build
// ConfigMap (tracked, so a new prefix re-resolves every Function of the namespace).
rr::SubReconciler<Function> FunctionTargetImageReconciler();

// The child Image: tag = status.targetImage, source = spec.git; none (any existing one deleted)
// without spec.git. Reflects status.imageRef, status.latestImage and the Image's Ready condition
// as ImageReady.
rr::SubReconciler<Function> FunctionChildImageReconciler();

}  // namespace fnsample
