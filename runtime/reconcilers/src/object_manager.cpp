// The mutation cache of UpdatingObjectManager (object_manager.hpp).
#include "rr/reconcilers/object_manager.hpp"

#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"

namespace rr {

void MutationCache::store(const std::string& uid, std::int64_t generation, Json patch,
                          std::chrono::system_clock::time_point expires) {
  std::lock_guard lock(mutex_);
  entries_[uid] = Entry{generation, std::make_shared<const Json>(std::move(patch)), expires};
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
  return *it->second.patch;
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

bool same_encoded(const ObjectCodec& codec, const void* a, const void* b) {
  Json ja;
  Json jb;
  codec.encode(ja, a);
  codec.encode(jb, b);
  return ja == jb;
}

bool with_remote_mutations(MutationCache& cache, const std::string& uid, std::int64_t generation,
                           std::chrono::system_clock::time_point now, const ObjectCodec& codec, const void* desired,
                           void* out, std::string& why_not) {
  std::optional<Json> patch = cache.find(uid, generation, now);
  if (!patch) return false;
  Json encoded;
  codec.encode(encoded, desired);
  std::optional<Json> patched = apply_mutation(encoded, *patch, why_not);
  if (!patched) return false;
  try {
    codec.decode(*patched, out);
    return true;
  } catch (...) {
    why_not = "the patched object does not decode";
    return false;
  }
}

void remember_remote_mutations(MutationCache& cache, const ObjectCodec& codec, const void* base, const void* updated,
                               const std::string& uid, std::int64_t generation,
                               std::chrono::system_clock::time_point expires) {
  Json patch;
  try {
    Json from;
    Json to;
    codec.encode(from, base);
    codec.encode(to, updated);
    patch = create_json_patch(from, to);
  } catch (...) {
    return;  // as a failed hook: nothing kept, the next update goes ahead
  }
  cache.store(uid, generation, std::move(patch), expires);
}

}  // namespace object_manager_detail

}  // namespace rr
