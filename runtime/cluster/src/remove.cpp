// DELETE and DELETE collection.
#include <algorithm>

#include "errors.hpp"
#include "namespace_lifecycle.hpp"
#include "object_filter.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

Json Store::remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  KindEntry& entry = served(kind);
  const Json stored = stored_or_404(entry, key);
  const std::string uid = meta_string(stored, "uid");
  const std::string rv = meta_string(stored, "resourceVersion");
  if (opts.precondition_uid && *opts.precondition_uid != uid) {
    fail(conflict(entry.info, key.name,
                  "Precondition failed: UID in precondition: " + *opts.precondition_uid +
                      ", UID in object meta: " + uid));
  }
  if (opts.precondition_resource_version && *opts.precondition_resource_version != rv) {
    fail(conflict(entry.info, key.name,
                  "Precondition failed: ResourceVersion in precondition: " + *opts.precondition_resource_version +
                      ", ResourceVersion in object meta: " + rv));
  }
  mutate_delete(entry, key, opts.dry_run);
  validate_write(entry, AdmissionOperation::Delete, nullptr, &stored, false, opts.dry_run, nullptr);
  check_still_stored(entry, stored);
  if (opts.dry_run) return stored;

  const ObjectKey stored_key = storage_key(entry, key);
  delete_object(entry, stored_key, opts.propagation);
  collect_garbage();
  // The object as the call leaves it: still terminating, or its last state once removed.
  if (auto it = entry.objects.find(stored_key); it != entry.objects.end() && meta_string(it->second, "uid") == uid) {
    return it->second;
  }
  auto removed = removed_in_call_.find(uid);
  return removed != removed_in_call_.end() ? removed->second : stored;
}

void Store::remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  removed_in_call_.clear();
  ++writes_begun_;
  KindEntry& entry = served(kind);
  const ObjectFilter filter = ObjectFilter::from(entry, list);
  std::vector<ObjectKey> keys;
  for (const auto& [key, object] : entry.objects) {
    if (filter.matches(object)) keys.push_back(key);
  }
  mutate_delete(entry, ObjectKey{list.namespace_, ""}, opts.dry_run);
  if (plugin_) {
    // Every item passes validating admission before any is deleted.
    for (const auto& key : keys) {
      auto it = entry.objects.find(key);
      if (it == entry.objects.end()) continue;  // gone while an earlier webhook was called
      const Json item = it->second;
      validate_write(entry, AdmissionOperation::Delete, nullptr, &item, false, opts.dry_run, nullptr);
    }
  }
  if (opts.dry_run) return;
  for (const auto& key : keys) {
    if (entry.objects.contains(key)) delete_object(entry, key, opts.propagation);
  }
  collect_garbage();
}

Json Store::delete_object(KindEntry& entry, const ObjectKey& key, PropagationPolicy policy) {
  const Json current = entry.objects.at(key);
  if (is_terminating(current)) return current;  // already being deleted: nothing more to do
  auto finalizers = finalizers_of(current);
  auto add = [&](const char* finalizer) {
    if (std::find(finalizers.begin(), finalizers.end(), finalizer) == finalizers.end()) finalizers.push_back(finalizer);
  };
  // The garbage collector's own finalizers carry the foreground and orphan policies.
  if (policy == PropagationPolicy::Foreground) add("foregroundDeletion");
  if (policy == PropagationPolicy::Orphan) add("orphan");
  Json object = current;
  set_finalizers(object, finalizers);
  if (finalized(entry, object)) return remove_now(entry, current);

  set_meta(object, "deletionTimestamp", timestamp());
  if (is_namespace_kind(entry.info)) {
    // The namespace registry's own Delete: only the timestamp and the phase change.
    set_phase(object, "Terminating");
  } else {
    set_meta(object, "deletionGracePeriodSeconds", 0);
    set_meta(object, "generation", generation_of(current) + 1);  // registry markAsDeleting
  }
  return commit_update(entry, current, std::move(object));
}

}  // namespace rr::cluster_detail
