// Tracker: "this reconciled object depends on that one" (by name or by label selector), so a
// change to the tracked object re-enqueues the observers. Tracks expire after a lease and are
// renewed by every call (the periodic resync re-tracks).
//
// One tracker per controller (per Config): observers are keys of that controller's kind.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/client/label_selector.hpp"

namespace rr {

// tracker.Reference: the version is left out on purpose.
struct TrackReference {
  std::string api_group;
  std::string kind;
  std::string namespace_;           // "" with a selector: any namespace
  std::string name;                 // exactly one of name and selector
  std::optional<Selector> selector;
  bool operator==(const TrackReference&) const = default;
  // "invalid Reference:\n..." when kind, group, namespace or the name/selector choice is wrong.
  std::optional<std::string> validation_error() const;
};

class Tracker {
 public:
  virtual ~Tracker() = default;
  // Throws std::invalid_argument when the reference is invalid.
  virtual void track_reference(const TrackReference& ref, const ObjectKey& observer) = 0;
  // Observers of an object (by its group, kind, namespace, name and labels); expired tracks are
  // dropped lazily. Order is unspecified.
  virtual std::vector<ObjectKey> get_observers(const Json& object) = 0;

  void track_object(const Json& object, const ObjectKey& observer);
  template <Object T>
  void track_object(const T& object, const ObjectKey& observer) {
    track_reference(TrackReference{std::string(ResourceTraits<T>::group), std::string(ResourceTraits<T>::kind),
                                   object.metadata.namespace_, object.metadata.name, std::nullopt},
                    observer);
  }
  template <DynamicObject T>
  void track_object(const T& object, const ObjectKey& observer) {
    track_reference(TrackReference{gvk_of(object).group, object.kind, object.metadata.namespace_, object.metadata.name,
                                   std::nullopt},
                    observer);
  }
};

using WallClock = std::function<std::chrono::system_clock::time_point()>;

// The TTL tracker. A zero lease falls back to 20 h (reconciler.io's 2×syncPeriod gives 0 when
// the sync period is 0, and every track would expire at once).
std::shared_ptr<Tracker> make_tracker(std::chrono::nanoseconds lease, WallClock clock = {});

}  // namespace rr
