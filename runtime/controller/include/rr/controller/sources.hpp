// What a controller watches besides the For, Owns and Tracked kinds its reconciler's setup asks
// for: predicates on those watches, watches of any kind mapped to requests by a function
// (controller-runtime's Watches with handler.EnqueueRequestsFromMapFunc), and channels the
// operator feeds (source.Channel). Given to a controller through ControllerOptions. See
// docs/runtime/39-predicates-and-watches.md.
//
//   options.watches.push_back(rr::MappedWatch{
//       .kind = rr::kind_info_of<k8s::core::v1::ConfigMap>(),
//       .map = [](const rr::Json& config_map) { return std::vector<rr::ObjectKey>{...}; },
//       .predicates = {rr::predicates::label_selector("app=web")},
//   });
//   auto channel = std::make_shared<rr::ChannelSource>();
//   options.channels.push_back(channel);
//   channel->push(object);  // from any thread: a reconcile request for the object's key
#pragma once
#include <cstddef>
#include <functional>
#include <mutex>
#include <vector>

#include "rr/client/kind.hpp"
#include "rr/client/object_key.hpp"
#include "rr/controller/predicates.hpp"
#include "rr/core/fwd.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

struct ObjectMeta;  // rr/core/meta.hpp

// Maps one object to the requests it should cause (EnqueueRequestsFromMapFunc's MapFunc).
using MapToRequests = std::function<std::vector<ObjectKey>(const Json& object)>;

// Predicates on one of the watches the reconciler's setup asks for. Every predicate of every entry
// matching a watch must pass for an event to be handled. `kind` names the Owns or Tracked kind by
// group and kind (its version is not compared) and is ignored for For.
struct WatchPredicates {
  WatchRequest::Mode mode = WatchRequest::Mode::For;
  GroupVersionKind kind{};
  std::vector<Predicate> predicates{};

  static WatchPredicates for_kind(std::vector<Predicate> predicates);
  static WatchPredicates owns(GroupVersionKind kind, std::vector<Predicate> predicates);
  static WatchPredicates tracked(GroupVersionKind kind, std::vector<Predicate> predicates);
};

// A watch of any kind whose events `map` turns into requests: on an update, the keys of the old
// and of the new object, each once. The kind's informer comes from the controller's cache, so a
// kind the cache keeps metadata-only (KindCacheOptions::metadata_only) gives `map`
// {apiVersion, kind, metadata}. `metadata_only` watches the kind's metadata only
// (controller-runtime's WatchesMetadata): the cache's metadata-only informer of the kind
// (InformerCache::metadata_informer), which lists and watches PartialObjectMetadata, whatever the
// cache keeps of the kind for reads; `map` and the predicates get {apiVersion, kind, metadata}.
struct MappedWatch {
  KindInfo kind{};
  MapToRequests map{};
  std::vector<Predicate> predicates{};
  bool metadata_only = false;
};

// The metadata of an object as a metadata-only watch gives it ({apiVersion, kind, metadata}; a
// whole object works too), decoded: what the generated hooks of a metadata-only watch take
// (include rr/core/meta.hpp to call it).
ObjectMeta object_metadata(const Json& object);

// A source of events from outside the cluster (controller-runtime's source.Channel): the operator
// pushes objects from any thread, each becomes a generic event, is filtered by `predicates` and is
// mapped to requests (the object's own key without `map`). Bound to one controller when it starts;
// what is pushed before then waits (up to `buffer` objects); once the controller has stopped,
// push() refuses.
struct ChannelSourceOptions {
  MapToRequests map{};
  std::vector<Predicate> predicates{};
  std::size_t buffer = 1024;
};

class ChannelSource {
 public:
  // Where a bound source sends the keys of one event.
  using Sink = std::function<void(const ObjectKey& key)>;

  explicit ChannelSource(ChannelSourceOptions options = {});
  ~ChannelSource();
  ChannelSource(const ChannelSource&) = delete;
  ChannelSource& operator=(const ChannelSource&) = delete;

  // Thread-safe. False when the object was not taken: the buffer of a source not yet bound is full,
  // or the source is closed. An object a predicate filters out is taken (true) and dropped.
  bool push(const Json& object);
  // How many objects wait for the controller to start.
  std::size_t pending() const;
  bool closed() const;

  // The controller's side: bind() delivers the objects waiting, then every push() at once (on the
  // pushing thread); close() ends it. A source binds once (std::logic_error otherwise).
  void bind(Sink sink);
  void close();

 private:
  void deliver_locked(const Json& object);

  ChannelSourceOptions options_;
  mutable std::mutex mutex_;
  Sink sink_;
  std::vector<Json> waiting_;  // in push order
  bool bound_ = false;
  bool closed_ = false;
};

}  // namespace rr
