// The event handlers a controller puts on its informers (controller-runtime's EnqueueRequestForObject,
// EnqueueRequestForOwner with OnlyControllerOwner, and reconciler.io's tracker mapping).
#pragma once
#include <functional>
#include <memory>
#include <optional>

#include "rr/controller/informer.hpp"
#include "rr/controller/predicates.hpp"
#include "rr/controller/sources.hpp"
#include "rr/controller/work_queue.hpp"
#include "rr/reconcilers/tracker.hpp"

namespace rr::controller_detail {

// Queues a key at a priority: kLowPriority for the initial list's adds and for updates that did not
// change the object's resourceVersion (resyncs), 0 for the rest (controller-runtime's handlers
// under WithLowPriorityWhenUnchanged, which every built-in handler uses).
using Enqueue = std::function<void(const ObjectKey& key, int priority)>;

// The object's own key.
InformerHandlers enqueue_object(Enqueue enqueue);
// The key of the object's controller owner when that owner is of kind `owner` (group and kind
// compared; the version is not). Updates enqueue the owners of the old and the new object.
InformerHandlers enqueue_owner(const KindInfo& owner, Enqueue enqueue);
// The tracker's observers of the object (of the old and the new object on updates).
InformerHandlers enqueue_tracked(std::shared_ptr<Tracker> tracker, Enqueue enqueue);

// The keys `map` returns (for an update: of the old and the new object, each once).
InformerHandlers enqueue_mapped(MapToRequests map, Enqueue enqueue);

// `handlers` behind `predicates`: an event reaches them only when every predicate passes it. The
// initial list's adds are create events, resyncs update events (old and new the same object).
InformerHandlers filtered(InformerHandlers handlers, std::vector<Predicate> predicates);

// The controller ownerReference of `object` if it is of kind `owner`: {owner's namespace, name}.
std::optional<ObjectKey> controller_owner_key(const Json& object, const KindInfo& owner);

}  // namespace rr::controller_detail
