// controller-runtime's default client: reads (get, list) of a kind come from the shared informer
// cache — its informer is created and synced on first use, the call blocking until then — while
// writes and watches go to the API. Objects returned are copies the caller owns.
#pragma once
#include <memory>
#include <vector>

#include "rr/client/forwarding_client.hpp"
#include "rr/controller/informer_cache.hpp"

namespace rr {

struct CachedClientOptions {
  // Kinds read from the API, never cached (controller-runtime's client.Options.Cache.DisableFor).
  std::vector<GroupVersionKind> uncached{};
};

class CachedClient final : public ForwardingClient {
 public:
  CachedClient(std::shared_ptr<Client> api, std::shared_ptr<InformerCache> cache, CachedClientOptions options = {});

  const std::shared_ptr<Client>& api() const noexcept { return inner(); }
  const std::shared_ptr<InformerCache>& cache() const noexcept { return cache_; }
  bool is_cached(const GroupVersionKind& gvk) const;

 protected:
  // Reads of cached kinds; everything else is forwarded to the API client.
  Json do_get(const KindInfo& kind, const ObjectKey& key) override;
  Json do_list(const KindInfo& kind, const ListOptions& opts) override;
  // True for a cached kind with that field indexer (the built-in controller_owner_field included).
  bool do_has_field_index(const KindInfo& kind, std::string_view field) const override;

 private:
  std::shared_ptr<InformerCache> cache_;
  CachedClientOptions options_;
};

}  // namespace rr
