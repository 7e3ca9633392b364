// controller-runtime's default client: reads (get, list) of a kind come from the shared informer
// cache — its informer is created and synced on first use, the call blocking until then — while
// writes and watches go to the API. Objects returned are copies the caller owns.
#pragma once
#include <memory>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/controller/informer_cache.hpp"

namespace rr {

struct CachedClientOptions {
  // Kinds read from the API, never cached (controller-runtime's client.Options.Cache.DisableFor).
  std::vector<GroupVersionKind> uncached{};
};

class CachedClient final : public Client {
 public:
  CachedClient(std::shared_ptr<Client> api, std::shared_ptr<InformerCache> cache, CachedClientOptions options = {});

  const std::shared_ptr<Client>& api() const noexcept { return api_; }
  const std::shared_ptr<InformerCache>& cache() const noexcept { return cache_; }
  bool is_cached(const GroupVersionKind& gvk) const;

  KindInfo kind_info(const GroupVersionKind& gvk) const override;
  Json get(const KindInfo& kind, const ObjectKey& key) override;
  Json list(const KindInfo& kind, const ListOptions& opts) override;
  Json create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
             std::string_view subresource, const WriteOptions& opts) override;
  Json remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;
  void remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) override;
  std::unique_ptr<Watch> watch(const KindInfo& kind, const ListOptions& opts) override;
  using Client::create;
  using Client::get;
  using Client::list;
  using Client::patch;
  using Client::remove;
  using Client::update;
  using Client::update_status;

 private:
  std::shared_ptr<Client> api_;
  std::shared_ptr<InformerCache> cache_;
  CachedClientOptions options_;
};

}  // namespace rr
