// Event targets, Go quoting, and the recorder that writes core/v1 Events through a client.
// Like client-go's correlator, a repeat of the same event (same object, type, reason and
// message) bumps `count` and `lastTimestamp` on the Event already written instead of creating
// another one.
#include "rr/reconcilers/events.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mutex>

#include "rr/core/json.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {

namespace {

std::string string_at(const Json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// core/v1 Event is served by every cluster; no typed Event is needed to address it.
const KindInfo& event_kind() {
  static const KindInfo kind{{"", "v1", "Event"}, "events", "EventList", Scope::Namespaced, false};
  return kind;
}

// client-go's cache holds 4096 events; older ones are forgotten (a repeat then creates anew).
constexpr std::size_t max_remembered_events = 4096;

struct EventKey {
  std::string api_version, kind, namespace_, name, uid, type, reason, message;
  auto operator<=>(const EventKey&) const = default;
};

struct Written {
  ObjectKey event;           // where the Event object lives
  std::int64_t count = 1;
  std::uint64_t last_use = 0;
};

std::string hex(std::uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(value));
  return buf;
}

class ClientEventRecorder final : public EventRecorder {
 public:
  ClientEventRecorder(std::shared_ptr<Client> client, std::string component, Logger log)
      : client_(std::move(client)), component_(std::move(component)), log_(std::move(log)) {}

  void record(const Event& event) override {
    // One lock around the whole write: events are rare, and two workers repeating the same event
    // must not both create it or lose a count.
    std::lock_guard lock(mutex_);
    const auto now = std::chrono::system_clock::now();
    const std::string timestamp = Time::from(now).str();
    const EventKey key{event.regarding.api_version, event.regarding.kind, event.regarding.namespace_,
                       event.regarding.name,        event.regarding.uid,  event.type,
                       event.reason,                event.message};
    try {
      if (auto it = written_.find(key); it != written_.end()) {
        if (bump(it->second, timestamp)) {
          by_use_.erase(it->second.last_use);
          it->second.last_use = ++uses_;
          by_use_.emplace(it->second.last_use, key);
          return;
        }
        forget(it);  // the Event is gone (expired or deleted): write a new one
      }
      create(key, event, now, timestamp);
    } catch (...) {
      log_.error(Error::from_current_exception(),
                 "unable to record event " + event.reason + " on " + event.regarding.kind + " " +
                     ObjectKey{event.regarding.namespace_, event.regarding.name}.str());
    }
  }

 private:
  // false when the Event no longer exists.
  bool bump(Written& written, const std::string& timestamp) {
    const Json patch = {{"count", written.count + 1}, {"lastTimestamp", timestamp}};
    try {
      client_->patch(event_kind(), written.event, PatchType::Merge, patch.dump(), {}, {});
    } catch (const ApiError& e) {
      if (is_not_found(e.status())) return false;
      throw;
    }
    ++written.count;
    return true;
  }

  void create(const EventKey& key, const Event& event, std::chrono::system_clock::time_point now,
              const std::string& timestamp) {
    // "<object>.<hex unix nanos>" as client-go names Events; strictly increasing per recorder so
    // two events in the same nanosecond do not collide.
    const auto nanos = static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count());
    last_suffix_ = std::max(nanos, last_suffix_ + 1);
    const ObjectKey where{event.regarding.namespace_.empty() ? "default" : event.regarding.namespace_,
                          event.regarding.name + "." + hex(last_suffix_)};
    const Json object = {
        {"apiVersion", "v1"},
        {"kind", "Event"},
        {"metadata", {{"name", where.name}, {"namespace", where.namespace_}}},
        {"involvedObject", event_object_reference(event.regarding)},
        {"reason", event.reason},
        {"message", event.message},
        {"type", event.type},
        {"count", 1},
        {"firstTimestamp", timestamp},
        {"lastTimestamp", timestamp},
        {"source", {{"component", component_}}},
        {"reportingComponent", component_},
    };
    client_->create(event_kind(), object, {});
    remember(key, Written{where, 1, ++uses_});
  }

  // Least recently used first out, in O(log n): a scan per event made recording O(cache size).
  void remember(const EventKey& key, Written written) {
    if (auto it = written_.find(key); it != written_.end()) forget(it);
    if (written_.size() >= max_remembered_events) forget(written_.find(by_use_.begin()->second));
    by_use_.emplace(written.last_use, key);
    written_.emplace(key, std::move(written));
  }

  void forget(std::map<EventKey, Written>::iterator it) {
    by_use_.erase(it->second.last_use);
    written_.erase(it);
  }

  std::shared_ptr<Client> client_;
  std::string component_;
  Logger log_;
  std::mutex mutex_;
  std::map<EventKey, Written> written_;
  std::map<std::uint64_t, EventKey> by_use_;  // last_use → key, oldest first
  std::uint64_t uses_ = 0;
  std::uint64_t last_suffix_ = 0;
};

}  // namespace

Json event_object_reference(const EventTarget& t) {
  Json j = Json::object();
  auto put = [&](const char* key, const std::string& value) {
    if (!value.empty()) j[key] = value;
  };
  put("apiVersion", t.api_version);
  put("kind", t.kind);
  put("namespace", t.namespace_);
  put("name", t.name);
  put("uid", t.uid);
  put("resourceVersion", t.resource_version);
  return j;
}

EventTarget event_target_of(const Json& object) {
  const Json empty = Json::object();
  const Json& metadata = object.is_object() && object.contains("metadata") ? object["metadata"] : empty;
  return {string_at(object, "apiVersion"), string_at(object, "kind"),     string_at(metadata, "namespace"),
          string_at(metadata, "name"),     string_at(metadata, "uid"),    string_at(metadata, "resourceVersion")};
}

std::shared_ptr<EventRecorder> make_client_event_recorder(std::shared_ptr<Client> client, std::string component,
                                                          Logger log) {
  return std::make_shared<ClientEventRecorder>(std::move(client), std::move(component), std::move(log));
}

}  // namespace rr
