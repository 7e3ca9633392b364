// The informer cache's field indexes (controller-runtime's IndexField).
#include <stdexcept>

#include "field_matcher.hpp"
#include "rr/controller/informer_cache.hpp"

namespace rr {

void InformerCache::index_field(const KindInfo& kind, std::string field, FieldIndexFn fn) {
  if (!fn) throw std::invalid_argument("field indexer \"" + field + "\" has no function");
  auto informer = get_or_create(kind);
  std::lock_guard lock(mutex_);
  auto& indexers = field_indexers_[kind.gvk];
  if (indexers.contains(field)) {
    throw std::invalid_argument("indexer conflict: field \"" + field + "\" of " + kind.gvk.kind +
                                " is already indexed");
  }
  informer->add_index(field_index_name(field), store_index_fn(fn));
  indexers.emplace(std::move(field), std::move(fn));
}

bool InformerCache::has_field_index(const GroupVersionKind& gvk, std::string_view field) const {
  if (field == controller_owner_field) return true;
  std::lock_guard lock(mutex_);
  auto it = field_indexers_.find(gvk);
  return it != field_indexers_.end() && it->second.find(field) != it->second.end();
}

FieldIndexFn* InformerCache::field_indexer(const KindInfo& kind, Informer& informer, std::string_view field) {
  std::lock_guard lock(mutex_);
  auto& indexers = field_indexers_[kind.gvk];
  if (auto it = indexers.find(field); it != indexers.end()) return &it->second;
  if (field != controller_owner_field) return nullptr;
  // Built in: indexed on first use, one pass over the store.
  FieldIndexFn fn = controller_owner_uid;
  informer.add_index(field_index_name(field), store_index_fn(fn));
  return &indexers.emplace(std::string(field), std::move(fn)).first->second;
}

}  // namespace rr
