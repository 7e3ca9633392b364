// Event handlers: which reconcile requests an informer event makes.
#include "controller_handlers.hpp"

#include <memory>
#include <set>
#include <stdexcept>
#include <string_view>

#include "rr/client/client.hpp"

namespace rr::controller_detail {

namespace {

using MapFn = std::function<void(const Json& object, std::set<ObjectKey>& keys)>;

std::string_view resource_version(const Json& object) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto version = meta->find("resourceVersion");
  return version != meta->end() && version->is_string() ? std::string_view(version->get_ref<const std::string&>())
                                                        : std::string_view();
}

// A resync delivers the stored object as both old and new: nothing changed.
int update_priority(const Json& old_object, const Json& new_object) {
  return resource_version(old_object) == resource_version(new_object) ? kLowPriority : 0;
}

// Enqueues the keys `map` finds; for an update, those of the old and the new object, each once
// (as controller-runtime's handlers collect them in a set): two adds of one key could otherwise
// straddle a worker's get() and reconcile it twice.
InformerHandlers mapping(Enqueue enqueue, MapFn map) {
  auto one = [enqueue, map](const Json& object, int priority) {
    std::set<ObjectKey> keys;
    map(object, keys);
    for (const auto& key : keys) enqueue(key, priority);
  };
  return InformerHandlers{
      [one](const Json& o) { one(o, 0); },
      [enqueue, map](const Json& old_object, const Json& new_object) {
        std::set<ObjectKey> keys;
        map(old_object, keys);
        map(new_object, keys);
        const int priority = update_priority(old_object, new_object);
        for (const auto& key : keys) enqueue(key, priority);
      },
      [one](const Json& o) { one(o, 0); },
      [one](const Json& o) { one(o, kLowPriority); },
  };
}

}  // namespace

// An update enqueues the new object's key only (controller-runtime's EnqueueRequestForObject).
InformerHandlers enqueue_object(Enqueue enqueue) {
  return InformerHandlers{
      [enqueue](const Json& o) { enqueue(key_of(o), 0); },
      [enqueue](const Json& old_object, const Json& new_object) {
        enqueue(key_of(new_object), update_priority(old_object, new_object));
      },
      [enqueue](const Json& o) { enqueue(key_of(o), 0); },
      [enqueue](const Json& o) { enqueue(key_of(o), kLowPriority); },
  };
}

std::optional<ObjectKey> controller_owner_key(const Json& object, const KindInfo& owner) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return std::nullopt;
  auto refs = meta->find("ownerReferences");
  if (refs == meta->end() || !refs->is_array()) return std::nullopt;
  for (const auto& ref : *refs) {
    if (!ref.is_object() || !ref.value("controller", false)) continue;
    const std::string kind = ref.value("kind", "");
    if (kind != owner.gvk.kind) return std::nullopt;  // only one controller reference exists
    try {
      if (GroupVersionKind::from(ref.value("apiVersion", ""), kind).group != owner.gvk.group) return std::nullopt;
    } catch (const std::invalid_argument&) {
      return std::nullopt;
    }
    return ObjectKey{owner.namespaced() ? key_of(object).namespace_ : std::string(), ref.value("name", "")};
  }
  return std::nullopt;
}

InformerHandlers enqueue_owner(const KindInfo& owner, Enqueue enqueue) {
  return mapping(std::move(enqueue), [owner](const Json& o, std::set<ObjectKey>& keys) {
    if (auto key = controller_owner_key(o, owner)) keys.insert(*key);
  });
}

InformerHandlers enqueue_mapped(MapToRequests map, Enqueue enqueue) {
  if (!map) throw std::invalid_argument("a mapped watch needs a map function");
  return mapping(std::move(enqueue), [map = std::move(map)](const Json& o, std::set<ObjectKey>& keys) {
    for (ObjectKey& key : map(o)) keys.insert(std::move(key));
  });
}

InformerHandlers filtered(InformerHandlers handlers, std::vector<Predicate> predicates) {
  if (predicates.empty()) return handlers;
  auto p = std::make_shared<const std::vector<Predicate>>(std::move(predicates));
  auto h = std::make_shared<const InformerHandlers>(std::move(handlers));
  auto created = [p](const Json& o) { return all_pass(*p, PredicateEvent{EventType::Create, nullptr, o}); };
  InformerHandlers out;
  if (h->on_add) {
    out.on_add = [h, created](const Json& o) {
      if (created(o)) h->on_add(o);
    };
  }
  if (h->on_update) {
    out.on_update = [h, p](const Json& old_object, const Json& new_object) {
      if (all_pass(*p, PredicateEvent{EventType::Update, &old_object, new_object}))
        h->on_update(old_object, new_object);
    };
  }
  if (h->on_delete) {
    out.on_delete = [h, p](const Json& o) {
      if (all_pass(*p, PredicateEvent{EventType::Delete, nullptr, o})) h->on_delete(o);
    };
  }
  if (h->on_initial_add) {
    out.on_initial_add = [h, created](const Json& o) {
      if (created(o)) h->on_initial_add(o);
    };
  }
  return out;
}

InformerHandlers enqueue_tracked(std::shared_ptr<Tracker> tracker, Enqueue enqueue) {
  if (!tracker) throw std::invalid_argument("a Tracked watch needs the config's tracker");
  return mapping(std::move(enqueue), [tracker](const Json& o, std::set<ObjectKey>& keys) {
    for (const auto& key : tracker->get_observers(o)) keys.insert(key);
  });
}

}  // namespace rr::controller_detail
