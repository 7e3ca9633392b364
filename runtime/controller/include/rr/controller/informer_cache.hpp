// Shared informers, one per kind (controller-runtime's informer cache): the manager runs it, every
// controller and the cached client take their informers from it, so each kind is listed and
// watched once per process. Reads are served from the informers' stores.
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/client/options.hpp"
#include "rr/controller/field_indexer.hpp"
#include "rr/controller/informer.hpp"
#include "rr/controller/runnable.hpp"

namespace rr {

// What one kind's informer caches (controller-runtime's cache.Options.ByObject): unset fields
// keep InformerCacheOptions::informer's.
struct KindCacheOptions {
  std::optional<std::string> namespace_{};
  // This kind's namespaces, over InformerCacheOptions::namespaces ({}: every namespace).
  std::optional<std::vector<std::string>> namespaces{};
  std::optional<std::string> label_selector{};  // objects outside it are not cached: reads miss them
  std::optional<std::string> field_selector{};
  std::optional<ObjectTransform> transform{};  // an empty function: no transform for this kind
  // true: this kind's informer is metadata-only (InformerOptions::metadata_only); reads of the kind
  // through the cache return {apiVersion, kind, metadata}.
  std::optional<bool> metadata_only{};
};

struct InformerCacheOptions {
  // Every informer's options (its resync_period is replaced by the one below).
  InformerOptions informer{};
  // Per kind, over `informer`.
  std::map<GroupVersionKind, KindCacheOptions> by_kind{};
  // controller-runtime's DefaultNamespaces: namespaced kinds are cached from these namespaces only,
  // one list and watch per namespace (InformerOptions::namespaces); empty: every namespace.
  // Cluster-scoped kinds are not affected. A read naming another namespace throws
  // CacheNamespaceError, as controller-runtime's multi-namespace cache refuses it.
  std::vector<std::string> namespaces{};
  // Namespaces chosen by their labels (label selector syntax, "team=a,env in (prod)"), as OLM's
  // OperatorGroup selects them: the cache lists and watches Namespaces (cluster scope) and caches
  // namespaced kinds from those that match, starting a namespace's list and watch when it comes to
  // match and dropping it (its objects delivered to on_delete) when it stops matching or goes.
  // A get or list of a namespace not selected answers NotFound / an empty list (the namespace may
  // leave at any time; controllers must see its objects go, not fail on them). A 403 in a selected
  // namespace (no RoleBinding yet) is reported and retried with backoff, and does not hold back
  // sync. Empty: not used. Excludes `namespaces` (std::invalid_argument); a kind's own
  // `namespaces` or `namespace_` still wins for it.
  std::string namespace_selector{};
  // controller-runtime's SyncPeriod (default 10 h): how often informers re-deliver every object.
  Clock::duration resync_period = std::chrono::hours(10);
  // How long a read waits for a new informer to sync before it fails.
  std::chrono::steady_clock::duration read_sync_timeout = std::chrono::minutes(2);
};

// A read from a cache that is not running (controller-runtime's ErrCacheNotStarted).
class CacheNotStartedError : public std::runtime_error {
 public:
  CacheNotStartedError() : std::runtime_error("the cache is not started, can not read objects") {}
};

// A get, or a list in one namespace, outside the namespaces a kind is cached from
// (controller-runtime: "unable to get: ns/name because of unknown namespace for the cache").
class CacheNamespaceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class InformerCache final : public Runnable {
 public:
  explicit InformerCache(std::shared_ptr<Client> client, InformerCacheOptions options = {});
  ~InformerCache() override;  // stops and joins informer threads still running

  // The informer of `kind`, created on first use. Once the cache runs, a new informer starts at once.
  std::shared_ptr<Informer> get_or_create(const KindInfo& kind);
  std::shared_ptr<Informer> find(const GroupVersionKind& gvk) const;
  // The metadata-only informer of `kind` (controller-runtime's informer of PartialObjectMetadata),
  // created on first use with the kind's options and InformerOptions::metadata_only: its objects are
  // {apiVersion, kind, metadata}. It is not get_or_create's, so reads of the kind through the cache
  // still get whole objects; a kind cached metadata-only already (KindCacheOptions::metadata_only)
  // has one informer, get_or_create's, returned here too.
  std::shared_ptr<Informer> metadata_informer(const KindInfo& kind);
  // Every informer, the metadata-only ones included.
  std::vector<std::shared_ptr<Informer>> informers() const;

  // Runnable: runs every informer on its own thread until `stop`, then stops and joins them.
  void start(std::stop_token stop) override;
  bool needs_leader_election() const override { return false; }
  std::string name() const override { return "informer-cache"; }
  // Started, and every informer has synced.
  bool ready() const override;
  bool started() const;

  // Waits (real time) until the cache runs and the informer of `kind` (created if needed) has
  // synced; false on timeout or stop.
  bool wait_for_sync(const KindInfo& kind, std::stop_token stop, std::chrono::steady_clock::duration timeout);
  // The same for an informer of this cache (metadata_informer's).
  bool wait_for_sync(const std::shared_ptr<Informer>& informer, std::stop_token stop,
                     std::chrono::steady_clock::duration timeout);
  // The same for every informer the cache has.
  bool wait_for_sync(std::stop_token stop, std::chrono::steady_clock::duration timeout);

  // Reads from the store of `kind`'s informer, creating it and waiting for its sync on first use.
  // Throw CacheNotStartedError when the cache does not run, std::runtime_error when the informer
  // does not sync within read_sync_timeout, ApiError NotFound (get) and BadRequest (a bad selector),
  // CacheNamespaceError for a namespace the kind is not cached from (options `namespaces`); a list
  // of every namespace covers the cached ones.
  Json get(const KindInfo& kind, const ObjectKey& key);
  // A <Kind>List of the stored objects matching opts.namespace_, label and field selectors, sorted
  // by key; opts.limit truncates (there is no continue token: the cache has everything).
  // When opts.field_selector has "<field>=<value>" on an indexed field, only the objects indexed
  // under that value are read (the other terms filter them).
  Json list(const KindInfo& kind, const ListOptions& opts);

  // controller-runtime's FieldIndexer.IndexField: indexes `kind`'s objects under fn's values for
  // `field`, so that a list selecting "<field>=<value>" reads only those, in one namespace or all.
  // Creates the informer if needed. Throws std::invalid_argument when the kind already has an
  // indexer for `field` (controller_owner_field is built in, created on the first list using it).
  void index_field(const KindInfo& kind, std::string field, FieldIndexFn fn);
  bool has_field_index(const GroupVersionKind& gvk, std::string_view field) const;

  // The namespaces `kind` is cached from, sorted ({}: every namespace, or a cluster-scoped kind;
  // with namespace_selector, those that match now, {} before the Namespaces are listed).
  std::vector<std::string> namespaces_of(const KindInfo& kind) const;
  // With namespace_selector: the selected namespaces, sorted; nullopt until Namespaces are listed.
  std::optional<std::vector<std::string>> selected_namespaces() const;
  // 403 answers to lists and watches, per kind and namespace, since the cache was made (for
  // rr_informer_cache_forbidden_total).
  std::map<std::pair<GroupVersionKind, std::string>, std::uint64_t> forbidden_counts() const;

  // Whether reads of `kind` in `ns` are served (the fixed list, or the selected namespaces).
  bool reads_namespace(const KindInfo& kind, std::string_view ns) const;

 private:
  bool selects_namespaces(const KindInfo& kind) const;
  InformerOptions options_for(const KindInfo& kind);
  // Recomputes the selected namespaces from the Namespace informer's store and hands them to
  // every informer of a selected kind.
  void select_namespaces();
  void run_namespace_selection(std::stop_token stop);

  // The indexer of (gvk, field), nullptr if none; adds the built-in one to the store on first use.
  FieldIndexFn* field_indexer(const KindInfo& kind, Informer& informer, std::string_view field);
  std::shared_ptr<Informer> synced_informer(const KindInfo& kind);
  std::shared_ptr<Informer> get_or_create_locked(const KindInfo& kind, InformerOptions options);
  void launch_locked(const std::shared_ptr<Informer>& informer);

  std::shared_ptr<Client> client_;
  InformerCacheOptions options_;
  mutable std::mutex mutex_;
  std::condition_variable_any started_cv_;
  std::map<GroupVersionKind, std::shared_ptr<Informer>> informers_;
  std::map<GroupVersionKind, std::shared_ptr<Informer>> metadata_informers_;  // metadata_informer's
  // Field indexers by kind and field; entries are never removed (pointers to them stay valid).
  std::map<GroupVersionKind, std::map<std::string, FieldIndexFn, std::less<>>> field_indexers_;
  std::vector<std::jthread> threads_;
  // namespace_selector: the Namespace informer (not among informers_), the selection (mutex_),
  // and select_mutex_ serialising select_namespaces() (taken before mutex_).
  std::shared_ptr<Informer> namespace_informer_;
  std::optional<std::vector<std::string>> selected_;
  std::mutex select_mutex_;
  std::map<std::pair<GroupVersionKind, std::string>, std::uint64_t> forbidden_;  // mutex_
  bool started_ = false;
  bool stopping_ = false;
};

}  // namespace rr
