// Event handlers: which reconcile requests an informer event makes.
#include "controller_handlers.hpp"

#include <set>
#include <stdexcept>

#include "rr/client/client.hpp"

namespace rr::controller_detail {

namespace {

using MapFn = std::function<void(const Json& object, std::set<ObjectKey>& keys)>;

// Enqueues the keys `map` finds; for an update, those of the old and the new object, each once
// (as controller-runtime's handlers collect them in a set): two adds of one key could otherwise
// straddle a worker's get() and reconcile it twice.
InformerHandlers mapping(Enqueue enqueue, MapFn map) {
  auto one = [enqueue, map](const Json& object) {
    std::set<ObjectKey> keys;
    map(object, keys);
    for (const auto& key : keys) enqueue(key);
  };
  return InformerHandlers{
      one,
      [enqueue, map](const Json& old_object, const Json& new_object) {
        std::set<ObjectKey> keys;
        map(old_object, keys);
        map(new_object, keys);
        for (const auto& key : keys) enqueue(key);
      },
      one,
  };
}

}  // namespace

InformerHandlers enqueue_object(Enqueue enqueue) {
  return InformerHandlers{
      [enqueue](const Json& o) { enqueue(key_of(o)); },
      [enqueue](const Json&, const Json& o) { enqueue(key_of(o)); },
      [enqueue](const Json& o) { enqueue(key_of(o)); },
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

InformerHandlers enqueue_tracked(std::shared_ptr<Tracker> tracker, Enqueue enqueue) {
  if (!tracker) throw std::invalid_argument("a Tracked watch needs the config's tracker");
  return mapping(std::move(enqueue), [tracker](const Json& o, std::set<ObjectKey>& keys) {
    for (const auto& key : tracker->get_observers(o)) keys.insert(key);
  });
}

}  // namespace rr::controller_detail
