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
  // Read your own writes (KEP-5647, controller-runtime #3320; docs/runtime/41): after this client
  // creates, updates, patches or deletes an object of a cached kind, a get of that object, and a
  // list of its kind that could hold it, wait up to this long for the cache to reach the write
  // (the resourceVersion it returned; for a delete, the object gone), and throw StaleCacheError if
  // it does not (the reconcile fails and is requeued with backoff). A reconcile's deadline ends the
  // wait earlier (rr/client/call_deadline.hpp). 0: off (reads may return objects from before the
  // write). Resource versions are compared as integers, as Kubernetes 1.35's comparable resource
  // versions allow; a version that is not a number is never waited for.
  std::chrono::milliseconds read_your_writes_wait = std::chrono::seconds(2);
  // Called when such a read found the cache older than a write (before it waits), with the key of
  // one object written; the controller counts it in controller_runtime_reconcile_stale_cache_total.
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
  // Writes: forwarded; what they answered is remembered for read_your_writes_wait.
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;
  Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;

 private:
  using WrittenKey = std::pair<GroupVersionKind, ObjectKey>;
  // This client's last write of one object, until the cache has caught up with it.
  struct Written {
    std::uint64_t version = 0;  // the resourceVersion the write answered (a delete: see do_remove)
    bool deleted = false;       // the write removed the object
  };
  bool remembering(const KindInfo& kind, bool dry_run) const;
  // Returns `answer` after remembering its resourceVersion (cached kinds, the wait on).
  Json remember(const KindInfo& kind, const WriteOptions& opts, Json answer);
  void remember_entry(const KindInfo& kind, ObjectKey key, Written written);
  // Whether the cache has caught up with `written` for that object.
  bool caught_up(const KindInfo& kind, const ObjectKey& key, const Written& written);
  // Waits (up to read_your_writes_wait, and the call's deadline) until the cache has caught up
  // with this client's writes of `kind` in `namespace_` (every namespace: empty) or of `only`.
  void await_writes(const KindInfo& kind, const std::string& namespace_, const ObjectKey* only);

  std::shared_ptr<InformerCache> cache_;
  CachedClientOptions options_;
  std::mutex written_mutex_;
  std::map<WrittenKey, Written> written_;
};

}  // namespace rr
