// Events recorded on objects (reconciler.io's catalogue: Created, Updated, StatusUpdated, ...).
#pragma once
#include <memory>
#include <optional>
#include <string>

#include "rr/client/client.hpp"
#include "rr/client/quote.hpp"  // go_quote, for event messages
#include "rr/reconcilers/logger.hpp"

namespace rr {

// The object an event is about (core/v1 Event involvedObject / events.k8s.io regarding).
struct EventTarget {
  std::string api_version;
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string resource_version;
  bool operator==(const EventTarget&) const = default;
};

inline constexpr std::string_view event_normal = "Normal";
inline constexpr std::string_view event_warning = "Warning";

struct Event {
  EventTarget regarding;
  std::string type;     // "Normal" or "Warning"
  std::string reason;   // UpperCamelCase, e.g. "Created"
  std::string message;  // core/v1 message, events.k8s.io/v1 note
  // events.k8s.io/v1 only: what was done ("" writes the reason, as the API requires an action) and
  // a second object the event involves. core/v1 Events carry neither.
  std::string action{};
  std::optional<EventTarget> related{};
  bool operator==(const Event&) const = default;
};

template <AnyObject T>
EventTarget event_target_of(const T& object) {
  return {api_version_of(object), kind_of(object),     object.metadata.namespace_,
          object.metadata.name,   object.metadata.uid, object.metadata.resource_version};
}
EventTarget event_target_of(const Json& object);
// The target as an ObjectReference (involvedObject, regarding, related): its non-empty fields.
Json event_object_reference(const EventTarget& target);

class EventRecorder {
 public:
  virtual ~EventRecorder() = default;
  virtual void record(const Event& event) = 0;
  template <AnyObject T>
  void event(const T& object, std::string_view type, std::string reason, std::string message) {
    record(Event{event_target_of(object), std::string(type), std::move(reason), std::move(message)});
  }
};

// Writes core/v1 Events through a client (older clusters; the controller's default is
// events.k8s.io/v1: rr/controller/event_recorder_v1.hpp) (aggregating repeats by bumping `count`), as the
// controller-runtime recorder does. `component` is the event source ("controller"). Recording
// never throws: a failed write is reported on `log` and dropped.
std::shared_ptr<EventRecorder> make_client_event_recorder(std::shared_ptr<Client> client,
                                                          std::string component = "controller",
                                                          Logger log = {});


}  // namespace rr
