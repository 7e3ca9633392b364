// controller-runtime's default client: reads (get, list) of a kind come from the shared informer
// cache — its informer is created and synced on first use, the call blocking until then — while
// writes and watches go to the API. Objects returned are copies the caller owns.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rr/client/forwarding_client.hpp"
#include "rr/controller/informer_cache.hpp"

namespace rr {

struct CachedClientOptions {
  // Kinds read from the API, never cached (controller-runtime's client.Options.Cache.DisableFor).
  std::vector<GroupVersionKind> uncached{};
  // Read your own writes (KEP-5647, controller-runtime #3320): after this client creates, updates
  // or patches an object of a cached kind, a get of that object waits up to this long for the
  // cache to reach the resourceVersion the write returned, and throws StaleCacheError if it does
  // not (the reconcile fails and is requeued with backoff). 0: off (reads may return the object
  // from before the write). Resource versions are compared as integers, as Kubernetes 1.35's
  // comparable resource versions allow; a version that is not a number is never waited for.
  std::chrono::milliseconds read_your_writes_wait = std::chrono::seconds(2);
  // Called when such a get found the cache older than the write (before it waits); the
  // controller counts it in controller_runtime_reconcile_stale_cache_total.
  std::function<void(const KindInfo& kind, const ObjectKey& key)> on_stale{};
};

// A get of an object this client wrote, while the cache stays older than the write.
class StaleCacheError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
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
  // Writes: forwarded; the resourceVersion answered is remembered for read_your_writes_wait.
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;

 private:
  using WrittenKey = std::pair<GroupVersionKind, ObjectKey>;
  // Returns `answer` after remembering its resourceVersion (cached kinds, the wait on).
  Json remember(const KindInfo& kind, const WriteOptions& opts, Json answer);
  // The cache's answer once it has reached `written` (or NotFound from it), else nullopt.
  std::optional<Json> read_at_least(const KindInfo& kind, const ObjectKey& key, std::uint64_t written);
  Json read_your_write(const KindInfo& kind, const ObjectKey& key);

  std::shared_ptr<InformerCache> cache_;
  CachedClientOptions options_;
  std::mutex written_mutex_;
  std::map<WrittenKey, std::uint64_t> written_;  // the last version written, until the cache has it
};

}  // namespace rr
