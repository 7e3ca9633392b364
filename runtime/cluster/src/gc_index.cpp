// The garbage collector's indexes: which objects are terminating, and which objects name each
// owner uid in their ownerReferences. Kept on every store write, so that the collector, which
// runs after each write that can unblock it, costs a lookup rather than a scan of every object
// (with thousands of objects the scans made deletes slow enough to dominate a soak).
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

std::string owner_uid_of(const Json& ref) {
  auto it = ref.find("uid");
  return it != ref.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

void Store::index_object(const KindEntry& entry, const ObjectKey& key, const Json& object, bool add) {
  const ObjectRef ref{entry.info.gvk, key};
  if (is_terminating(object)) {
    if (add) terminating_.insert(ref);
    else terminating_.erase(ref);
  }
  for (const Json& owner : owner_references_of(object)) {
    const std::string uid = owner_uid_of(owner);
    if (uid.empty()) continue;
    if (add) {
      dependents_by_owner_[uid].insert(ref);
    } else if (auto it = dependents_by_owner_.find(uid); it != dependents_by_owner_.end()) {
      it->second.erase(ref);
      if (it->second.empty()) dependents_by_owner_.erase(it);
    }
  }
}

void Store::store_object(KindEntry& entry, const ObjectKey& key, Json object) {
  auto it = entry.objects.find(key);
  if (it != entry.objects.end()) {
    index_object(entry, key, it->second, false);
    it->second = std::move(object);
  } else {
    it = entry.objects.emplace(key, std::move(object)).first;
  }
  index_object(entry, key, it->second, true);
}

void Store::erase_object(KindEntry& entry, const ObjectKey& key) {
  auto it = entry.objects.find(key);
  if (it == entry.objects.end()) return;
  index_object(entry, key, it->second, false);
  entry.objects.erase(it);
}

std::vector<Store::ObjectRef> Store::terminating_objects() const { return {terminating_.begin(), terminating_.end()}; }

std::vector<std::pair<KindEntry*, ObjectKey>> Store::dependents_of(const std::string& owner_uid) {
  std::vector<std::pair<KindEntry*, ObjectKey>> out;
  auto found = dependents_by_owner_.find(owner_uid);
  if (owner_uid.empty() || found == dependents_by_owner_.end()) return out;
  for (const auto& [gvk, key] : found->second) {
    auto kind = kinds_.find(gvk);
    if (kind != kinds_.end() && kind->second.objects.count(key) > 0) out.emplace_back(&kind->second, key);
  }
  return out;
}

}  // namespace rr::cluster_detail
