// The mutation cache of UpdatingObjectManager (object_manager.hpp).
#include "rr/reconcilers/object_manager.hpp"

namespace rr {

void MutationCache::store(const std::string& uid, std::int64_t generation, Json patch,
                          std::chrono::system_clock::time_point expires) {
  std::lock_guard lock(mutex_);
  entries_[uid] = Entry{generation, std::move(patch), expires};
}

std::optional<Json> MutationCache::find(const std::string& uid, std::int64_t generation,
                                        std::chrono::system_clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = entries_.find(uid);
  if (it == entries_.end()) return std::nullopt;
  if (now >= it->second.expires) {
    entries_.erase(it);
    return std::nullopt;
  }
  // Another generation: the object changed since (or the read is stale), the captured defaults
  // may not hold. Kept: a stale read does not invalidate it, the next update replaces it.
  if (it->second.generation != generation) return std::nullopt;
  return it->second.patch;
}

std::size_t MutationCache::size() const {
  std::lock_guard lock(mutex_);
  return entries_.size();
}

namespace object_manager_detail {

std::optional<Json> apply_mutation(const Json& desired, const Json& patch, std::string& why_not) {
  try {
    return apply_json_patch(desired, patch);
  } catch (const std::exception& e) {
    why_not = e.what();
    return std::nullopt;
  }
}

}  // namespace object_manager_detail

}  // namespace rr
