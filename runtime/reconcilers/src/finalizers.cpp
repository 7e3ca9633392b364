// AddFinalizer / ClearFinalizer (reconciler.io finalizer.go): a merge patch of just the
// finalizers, locked on the resourceVersion, sent with the config that loaded the resource.
#include "rr/reconcilers/finalizers.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "rr/core/json.hpp"

namespace rr {

namespace {

std::vector<std::string> finalizers_of(const Json& resource) {
  std::vector<std::string> out;
  if (!resource.is_object() || !resource.contains("metadata")) return out;
  const Json& metadata = resource["metadata"];
  if (!metadata.is_object() || !metadata.contains("finalizers") || !metadata["finalizers"].is_array()) return out;
  for (const auto& f : metadata["finalizers"]) {
    if (f.is_string()) out.push_back(f.get<std::string>());
  }
  return out;
}

std::string resource_version_of(const Json& resource) {
  if (!resource.is_object() || !resource.contains("metadata")) return {};
  const Json& metadata = resource["metadata"];
  auto it = metadata.find("resourceVersion");
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// MergeFromWithOptimisticLock's diff: the finalizer list as a whole (null once it is empty, as
// the emptied list is omitted from the desired object) and the resourceVersion it was read at.
std::string finalizers_patch(const std::vector<std::string>& finalizers, const std::string& resource_version) {
  Json metadata = Json::object();
  metadata["finalizers"] = finalizers.empty() ? Json(nullptr) : Json(finalizers);
  metadata["resourceVersion"] = resource_version;
  return Json{{"metadata", metadata}}.dump();
}

// Copies what the server answered: finalizers, resourceVersion and generation.
void copy_back(Json& resource, const Json& patched) {
  Json& metadata = resource["metadata"];
  const Json empty = Json::object();
  const Json& from = patched.is_object() && patched.contains("metadata") ? patched["metadata"] : empty;
  for (const char* key : {"finalizers", "resourceVersion", "generation"}) {
    if (from.contains(key)) {
      metadata[key] = from[key];
    } else {
      metadata.erase(key);
    }
  }
}

Error ensure_finalizer(Context& ctx, const KindInfo& kind, Json& resource, std::string_view finalizer, bool add) {
  if (finalizer.empty()) return {};
  std::vector<std::string> finalizers = finalizers_of(resource);
  const bool present = std::find(finalizers.begin(), finalizers.end(), finalizer) != finalizers.end();
  if (present == add) return {};

  // controllerutil.AddFinalizer appends; RemoveFinalizer drops every occurrence.
  if (add) {
    finalizers.emplace_back(finalizer);
  } else {
    std::erase(finalizers, finalizer);
  }

  const Config& config = ctx.original_config();
  const EventTarget target = event_target_of(resource);  // the object as it was before the patch
  const std::string quoted = go_quote(finalizer);
  Json patched;
  try {
    patched = config.api().patch(kind, key_of(resource), PatchType::Merge,
                                 finalizers_patch(finalizers, resource_version_of(resource)), {}, {});
  } catch (...) {
    Error err = Error::from_current_exception();
    ctx.log().with("finalizer", std::string(finalizer)).error(err, "unable to patch finalizers");
    if (config.recorder) {
      config.recorder->record(Event{target, std::string(event_warning), "FinalizerPatchFailed",
                                    "Failed to patch finalizer " + quoted + ": " + err.message()});
    }
    return err;
  }
  if (config.recorder) {
    config.recorder->record(
        Event{target, std::string(event_normal), "FinalizerPatched", "Patched finalizer " + quoted});
  }
  copy_back(resource, patched);
  return {};
}

}  // namespace

Error add_finalizer(Context& ctx, const KindInfo& kind, Json& resource, std::string_view finalizer) {
  return ensure_finalizer(ctx, kind, resource, finalizer, true);
}

Error clear_finalizer(Context& ctx, const KindInfo& kind, Json& resource, std::string_view finalizer) {
  return ensure_finalizer(ctx, kind, resource, finalizer, false);
}

bool has_finalizer(const ObjectMeta& meta, std::string_view finalizer) noexcept {
  return std::find(meta.finalizers.begin(), meta.finalizers.end(), finalizer) != meta.finalizers.end();
}

namespace detail {

KindInfo finalizer_kind_of_dynamic(const Context& ctx, const GroupVersionKind& gvk) {
  if (ctx.original_resource_type().gvk == gvk) return ctx.original_resource_type();
  return ctx.original_config().api().kind_info(gvk);
}

Error ensure_finalizer_encoded(Context& ctx, const KindInfo& kind, void (*encode)(Json& out, const void* resource),
                               const void* resource, ObjectMeta& meta, std::string_view finalizer, bool add) {
  Json object;
  encode(object, resource);
  Error err = add ? add_finalizer(ctx, kind, object, finalizer) : clear_finalizer(ctx, kind, object, finalizer);
  if (err) return err;
  ObjectMeta patched = object["metadata"].get<ObjectMeta>();
  meta.finalizers = std::move(patched.finalizers);
  meta.resource_version = std::move(patched.resource_version);
  meta.generation = patched.generation;
  return {};
}

}  // namespace detail

}  // namespace rr
