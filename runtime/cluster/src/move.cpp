// A CRD's storage version changed: its objects move to the new storage version's kind as they
// are stored (resourceVersion and uid kept, no watch events), converted by the caller.
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

std::size_t Store::move_objects(const KindInfo& from, const KindInfo& to, const std::vector<Json>& converted) {
  auto source = kinds_.find(from.gvk);
  auto target = kinds_.find(to.gvk);
  if (source == kinds_.end() || target == kinds_.end() || source == target) return 0;
  std::size_t moved = 0;
  for (const Json& object : converted) {
    const ObjectKey key = storage_key(source->second, key_of(object));
    auto stored = source->second.objects.find(key);
    // Only what is still stored as it was when it was converted.
    if (stored == source->second.objects.end() ||
        meta_string(stored->second, "resourceVersion") != meta_string(object, "resourceVersion")) {
      continue;
    }
    const ObjectKey target_key = storage_key(target->second, key);
    if (target->second.objects.contains(target_key)) continue;
    erase_object(source->second, key);
    store_object(target->second, target_key, object);
    ++moved;
  }
  return moved;
}

}  // namespace rr::cluster_detail
