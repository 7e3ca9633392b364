// A watch stream: ADDED / MODIFIED / DELETED / BOOKMARK / ERROR events in resourceVersion order.
#pragma once
#include <chrono>
#include <optional>
#include <string_view>

#include "rr/core/json.hpp"

namespace rr {

enum class WatchEventType { Added, Modified, Deleted, Bookmark, Error };
std::string_view to_string(WatchEventType t) noexcept;  // "ADDED", ...

struct WatchEvent {
  WatchEventType type = WatchEventType::Added;
  Json object;  // the object (for ERROR: a Status body, e.g. 410 Expired)
};

class Watch {
 public:
  virtual ~Watch() = default;
  // Next event, waiting at most `timeout`; nullopt on timeout or once the stream has ended.
  virtual std::optional<WatchEvent> next(std::chrono::milliseconds timeout) = 0;
  // Ends the stream; a blocked next() returns nullopt. Safe to call from another thread.
  virtual void stop() = 0;
  virtual bool stopped() const = 0;
};

}  // namespace rr
