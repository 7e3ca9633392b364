#include "function_reconciler.hpp"

#include <optional>
#include <string>
#include <utility>

#include "config_data.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/sync.hpp"

namespace fnsample {

namespace {

using k8s::core::v1::ConfigMap;

// The image to build into; an empty string and the reason in `why` when it cannot be resolved.
std::string resolve_target_image(rr::Context& ctx, const Function& function, std::string& why) {
  if (function.spec && function.spec->image && !function.spec->image->empty()) return *function.spec->image;
  // Tracked before the read, so the ConfigMap's creation or change re-drives this Function.
  const std::optional<ConfigMap> config = rr::track_and_try_get<ConfigMap>(
      ctx, {function.metadata.namespace_, std::string(function_build_config_map)});
  const std::string prefix = config ? config_value(*config, default_image_prefix_key) : std::string();
  if (prefix.empty()) {
    why = "spec.image is empty and ConfigMap " + rr::go_quote(function_build_config_map) +
          (config ? " has no " + std::string(default_image_prefix_key) : std::string(" does not exist"));
    return {};
  }
  return prefix + "/" + function.metadata.name;
}

// The Image building spec.git into `tag`.
Image desired_image(const Function& function, const std::string& tag) {
  Image image;
  image.metadata.namespace_ = function.metadata.namespace_;
  image.metadata.name = function_image_name(function);
  image.metadata.labels = function.metadata.labels;
  image.metadata.labels[std::string(function_label_key)] = function.metadata.name;
  v1alpha1::ImageSpecSourceGit git;
  git.url = function.spec->git->url;
  git.revision = function.spec->git->revision;
  v1alpha1::ImageSpec spec;
  spec.tag = tag;
  spec.source.emplace().git = std::move(git);
  image.spec = std::move(spec);
  return image;
}

// ImageReady mirrors the Image's Ready condition; nothing reported yet leaves it as it is
// (projectriff's PropagateKpackImageStatus).
void propagate_image_ready(rr::ConditionManager& conditions, const Image& image) {
  const rr::Condition* ready = image.status && image.status->conditions
                                   ? rr::find_condition(*image.status->conditions, rr::condition_ready)
                                   : nullptr;
  if (!ready) return;
  if (rr::condition_is_true(ready)) {
    conditions.mark_true(condition_image_ready, ready->reason, ready->message);
  } else if (rr::condition_is_false(ready)) {
    conditions.mark_false(condition_image_ready, ready->reason, ready->message);
  } else {
    conditions.mark_unknown(condition_image_ready, ready->reason, ready->message);
  }
}

void reflect_image(rr::Context& ctx, Function& function, const Image* image, const rr::Error& err) {
  rr::ConditionManager conditions = function_conditions().manage(rr::ensure_conditions(function), ctx.now());
  auto& status = rr::ensure_status(function);
  if (err) {
    // With a fixed child name, someone else's Image may be in the way; it is never adopted.
    if (rr::is_already_exists(err)) {
      conditions.mark_false(condition_image_ready, "NotOwned",
                            "There is an existing Image " + rr::go_quote(function_image_name(function)) +
                                " that the Function does not own.");
    } else {
      conditions.mark_false(condition_image_ready, rr::reason_of(err), err.message());
    }
    return;
  }
  if (!image) {  // no build: the target image is used as it is
    status.image_ref.reset();
    status.latest_image = status.target_image;
    conditions.mark_true(condition_image_ready, "BuildNotUsed");
    return;
  }
  status.image_ref = image->metadata.name;
  status.latest_image = image->status ? image->status->latest_image : std::nullopt;
  propagate_image_ready(conditions, *image);
}

}  // namespace

const rr::ConditionSet& function_conditions() {
  static const rr::ConditionSet set =
      rr::ConditionSet::living({std::string(condition_image_resolved), std::string(condition_image_ready)});
  return set;
}

std::string function_image_name(const Function& function) { return function.metadata.name + "-image"; }

rr::Reconciler FunctionReconciler(const rr::Config& config) {
  return rr::ResourceReconciler<Function>{
      .name = "Function",
      .conditions = function_conditions(),
      .reconciler = rr::Sequence<Function>{FunctionTargetImageReconciler(), FunctionChildImageReconciler()},
      .config = config,
  };
}

rr::SubReconciler<Function> FunctionTargetImageReconciler() {
  return rr::SyncReconciler<Function>{
      .name = "TargetImage",
      .sync = [](rr::Context& ctx, Function& function) -> rr::Error {
        rr::ConditionManager conditions = function_conditions().manage(rr::ensure_conditions(function), ctx.now());
        std::string why;
        std::string target = resolve_target_image(ctx, function, why);
        if (target.empty()) {
          conditions.mark_false(condition_image_resolved, "DefaultImagePrefixMissing", why);
          return rr::Error::make(why);
        }
        rr::ensure_status(function).target_image = std::move(target);
        conditions.mark_true(condition_image_resolved, "Resolved");
        return {};
      },
  };
}

rr::SubReconciler<Function> FunctionChildImageReconciler() {
  return rr::ChildReconciler<Function, Image>{
      .name = "ChildImage",
      .desired_child = [](rr::Context&, const Function& function) -> rr::Desired<Image> {
        if (!function.spec || !function.spec->git) return std::nullopt;  // nothing to build: delete any Image
        const std::string tag = function.status ? function.status->target_image.value_or("") : std::string();
        if (tag.empty()) return rr::Error::make("status.targetImage is not resolved; FunctionTargetImageReconciler runs first");
        return desired_image(function, tag);
      },
      .child_object_manager =
          rr::UpdatingObjectManager<Image>{
              .merge_before_update =
                  [](Image& current, const Image& desired) {
                    current.metadata.labels = desired.metadata.labels;
                    current.spec = desired.spec;
                  },
              // Logs show the spec only (an Image carrying secrets would drop them here).
              .sanitize = [](const Image& image) { return image.spec ? rr::Json(*image.spec) : rr::Json(); },
          },
      .reflect_child_status_on_parent = reflect_image,
  };
}

}  // namespace fnsample
