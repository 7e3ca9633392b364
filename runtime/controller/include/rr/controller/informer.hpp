// An informer (client-go's SharedIndexInformer) for one kind: streams or lists the initial state,
// then watches on, keeps the objects in an indexed store and calls event handlers. See
// docs/runtime/21-informers-and-controllers.md.
//
//   rr::Informer informer(client, kind_info);
//   informer.add_handlers({.on_add = [&](const rr::Json& o) { queue.add(rr::key_of(o)); }});
//   std::jthread thread([&](std::stop_token stop) { informer.run(stop); });
//   informer.wait_for_sync(thread.get_stop_token(), std::chrono::seconds(30));
#pragma once
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/client/object_key.hpp"
#include "rr/controller/clock.hpp"
#include "rr/controller/informer_store.hpp"
#include "rr/controller/informer_transforms.hpp"
#include "rr/core/json.hpp"

namespace rr {

class Client;

// Called in event order, one call at a time. Empty members are skipped. A handler must not add or
// remove handlers of the same informer; exceptions it throws are reported and swallowed.
struct InformerHandlers {
  std::function<void(const Json& object)> on_add;
  // Resyncs call it with the same object twice.
  std::function<void(const Json& old_object, const Json& new_object)> on_update;
  // The object's last state: the watch event's, or the last one stored when a relist finds it gone.
  std::function<void(const Json& object)> on_delete;
  // Optional: gets, instead of on_add, the adds of the initial list (those before the informer
  // has synced) and the store's replay to handlers registered later: client-go's
  // isInInitialList. Unset: on_add gets them too.
  std::function<void(const Json& object)> on_initial_add{};
};

// How an informer reads its initial state (and each relist's); docs/runtime/21, "Initial list".
enum class InitialList {
  // A watch with sendInitialEvents (client-go's WatchList, its default since 1.35): the objects
  // arrive as events up to the initial-events-end bookmark and the same stream goes on as the
  // watch. A server that refuses it gets a paged list instead.
  streaming,
  paged,    // list in pages of `page_size` (limit/continue), then watch from the list's version
  unpaged,  // one list request, then watch (for servers that page badly; the old behaviour)
};

struct InformerOptions {
  Clock* clock = nullptr;  // resync and backoff timing; nullptr: Clock::real(). Must outlive the informer.
  // Re-delivers every stored object as on_update(o, o) this often; 0: never.
  Clock::duration resync_period{0};
  // What to cache: one namespace ("" = all), label and field selectors (as the list/watch query).
  std::string namespace_{};
  // Several namespaces (controller-runtime's cache.Options.DefaultNamespaces): one list and one
  // watch per namespace, as the multi-namespace cache runs one informer per namespace, into one
  // store and one set of handlers. Non-empty: `namespace_` is ignored. The informer has synced
  // when every namespace has; last_resource_version() is then "" (no one version covers them).
  std::vector<std::string> namespaces{};
  // The namespaces come and go while the informer runs (InformerCacheOptions::namespace_selector):
  // set_namespaces() names them, one list and watch each as with `namespaces` (which is ignored).
  // The informer has not synced before the first set_namespaces(); a namespace whose list or watch
  // is refused 403 (no RoleBinding there yet) does not hold back has_synced() and is retried.
  bool dynamic_namespaces = false;
  std::string label_selector{};
  std::string field_selector{};
  // Applied to every listed and watched object before it is stored and delivered (the handlers
  // see the transformed object); empty: none. See informer_transforms.hpp.
  ObjectTransform transform{};
  // A metadata-only informer (controller-runtime's metadata watches, builder.OnlyMetadata): lists
  // and watches ask for PartialObjectMetadata (ListOptions::metadata_only), so only the metadata
  // crosses the network, and each object is kept as {apiVersion, kind, metadata} with the kind's
  // own apiVersion and kind (as controller-runtime keeps the GVK on what it reads back). Objects a
  // server sends whole are cut to that too. `transform` runs after.
  bool metadata_only = false;
  // The store keeps decoded views of the objects read last alive, up to this many bytes of their
  // JSON text (a view takes 4–10× that), so that repeated reads do not decode again. 0: none.
  std::size_t decoded_cache_bytes = ObjectStore::default_decoded_cache_bytes;
  // Backoff between failed list/watch attempts (client-go's reflector): doubles from `initial_backoff`
  // up to `max_backoff`, back to `initial_backoff` once `backoff_reset` has passed without a failure.
  Clock::duration initial_backoff = std::chrono::milliseconds(800);
  Clock::duration max_backoff = std::chrono::seconds(30);
  Clock::duration backoff_reset = std::chrono::minutes(2);
  // Each watch asks the server to end it after a random time in [min, 2·min) (client-go: 5 min).
  std::chrono::seconds min_watch_timeout = std::chrono::minutes(5);
  // How long the informer's thread waits for an event before it looks at the resync timer.
  std::chrono::milliseconds poll_interval = std::chrono::seconds(1);
  InitialList initial_list = InitialList::streaming;
  // Objects per page of a paged list (client-go's pager: 500).
  std::int64_t page_size = 500;
  // Failures of list and watch (the informer retries them); for logs.
  std::function<void(std::string_view message)> on_error{};
  // A list or watch in `namespace_` ("" for every namespace) answered 403 Forbidden, before the
  // retry with backoff; on the stream's thread. For metrics (on_error reports it too).
  std::function<void(std::string_view namespace_)> on_forbidden{};
};

class Informer {
 public:
  using HandlerId = std::uint64_t;

  Informer(std::shared_ptr<Client> client, KindInfo kind, InformerOptions options = {});
  ~Informer();
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  const KindInfo& kind() const noexcept;
  // InformerOptions::metadata_only: the objects are {apiVersion, kind, metadata}.
  bool metadata_only() const noexcept;

  // Reads the initial state (options.initial_list: streamed, or listed) and watches until `stop`
  // is requested; handlers are called on this thread (with `namespaces`, on one thread per
  // namespace, still one call at a time). Failures are retried with backoff: an ERROR
  // event, a 410 Gone or a failed call relists (the difference with the store becomes
  // add/update/delete events); a watch stream that ends is resumed from the last resourceVersion
  // seen (bookmarks move it). Call once (std::logic_error otherwise).
  void run(std::stop_token stop);

  // With options.dynamic_namespaces: caches these namespaces from now on (any order, repeats
  // ignored). A new one gets its list and watch (at once if run() runs, else when it starts); one
  // left out stops its stream and its objects leave the store, each delivered to on_delete, before
  // this returns. std::logic_error without dynamic_namespaces.
  void set_namespaces(std::vector<std::string> namespaces);

  // True once the first initial list is in the store and its on_add events delivered.
  bool has_synced() const;
  // Waits (real time) for has_synced(); false on timeout or stop.
  bool wait_for_sync(std::stop_token stop, std::chrono::steady_clock::duration timeout) const;

  // Registers handlers. When the informer has synced already, the new handlers first get on_add for
  // every stored object (on the caller's thread, before any later event), as client-go does.
  HandlerId add_handlers(InformerHandlers handlers);
  // After it returns, the handlers are never called again.
  void remove_handlers(HandlerId id);

  // Store access. Reads return copies.
  void add_index(std::string name, IndexFn fn);
  std::optional<Json> get(const ObjectKey& key) const;
  std::vector<Json> list() const;
  std::vector<Json> by_index(std::string_view index, std::string_view value) const;
  const ObjectStore& store() const noexcept;
  // The resourceVersion the informer has reached ("" before the first list).
  std::string last_resource_version() const;

  struct Impl;  // opaque: declared here so the implementation's helpers can name it

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
