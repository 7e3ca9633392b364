#include "rr/client/watch.hpp"

namespace rr {

std::string_view to_string(WatchEventType t) noexcept {
  switch (t) {
    case WatchEventType::Added: return "ADDED";
    case WatchEventType::Modified: return "MODIFIED";
    case WatchEventType::Deleted: return "DELETED";
    case WatchEventType::Bookmark: return "BOOKMARK";
    case WatchEventType::Error: return "ERROR";
  }
  return "ERROR";
}

}  // namespace rr
