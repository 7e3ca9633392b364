#include "rr/controller/informer_cache_metrics.hpp"

#include <utility>

namespace rr::metrics {

InformerCacheMetrics::InformerCacheMetrics(Registry& registry, std::shared_ptr<const InformerCache> cache)
    : objects_(registry.gauge("rr_informer_cache_objects", "Number of objects in the informer cache, per kind.",
                              {"group", "version", "kind"})),
      cache_(std::move(cache)) {}

void InformerCacheMetrics::collect() {
  for (const auto& informer : cache_->informers()) {
    const GroupVersionKind& gvk = informer->kind().gvk;
    objects_.with({gvk.group, gvk.version, gvk.kind}).set(static_cast<double>(informer->store().size()));
  }
}

}  // namespace rr::metrics
