// rr_informer_cache_objects{group,version,kind}: how many objects each informer of the shared
// cache holds, set at scrape time (the manager calls collect() before each /metrics answer).
// controller-runtime has no such metric and no common name exists (client-go's reflector metrics
// were removed), hence the rr_ prefix. rr_informer_cache_forbidden_total{group,version,kind,namespace}:
// lists and watches answered 403 (a namespace selected without a RoleBinding yet,
// docs/runtime/40-several-namespaces.md). See docs/runtime/18-metrics.md.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "rr/controller/informer_cache.hpp"
#include "rr/controller/metrics.hpp"

namespace rr::metrics {

class InformerCacheMetrics {
 public:
  InformerCacheMetrics(Registry& registry, std::shared_ptr<const InformerCache> cache);
  // One gauge per informer the cache has, created with it; a kind keeps its series (at its last
  // count) should its informer go, as registry children are never removed.
  void collect();

 private:
  GaugeFamily& objects_;
  CounterFamily& forbidden_;
  std::shared_ptr<const InformerCache> cache_;
  std::map<std::pair<GroupVersionKind, std::string>, std::uint64_t> forbidden_seen_;  // counted so far
};

}  // namespace rr::metrics
