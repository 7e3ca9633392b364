#include "rr/controller/informer_cache_metrics.hpp"

#include <utility>

namespace rr::metrics {

InformerCacheMetrics::InformerCacheMetrics(Registry& registry, std::shared_ptr<const InformerCache> cache)
    : objects_(registry.gauge("rr_informer_cache_objects", "Number of objects in the informer cache, per kind.",
                              {"group", "version", "kind"})),
      forbidden_(
          registry.counter("rr_informer_cache_forbidden_total",
                           "Lists and watches of the informer cache answered 403 Forbidden, per kind and namespace.",
                           {"group", "version", "kind", "namespace"})),
      cache_(std::move(cache)) {}

void InformerCacheMetrics::collect() {
  for (const auto& informer : cache_->informers()) {
    const GroupVersionKind& gvk = informer->kind().gvk;
    objects_.with({gvk.group, gvk.version, gvk.kind}).set(static_cast<double>(informer->store().size()));
  }
  for (const auto& [where, count] : cache_->forbidden_counts()) {
    auto& seen = forbidden_seen_[where];
    if (count == seen) continue;
    const GroupVersionKind& gvk = where.first;
    forbidden_.with({gvk.group, gvk.version, gvk.kind, where.second}).inc(static_cast<double>(count - seen));
    seen = count;
  }
}

}  // namespace rr::metrics
