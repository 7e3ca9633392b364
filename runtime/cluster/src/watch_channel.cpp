#include "watch_channel.hpp"

#include "object_meta.hpp"

namespace rr::cluster_detail {

WatchChannel::WatchChannel(GroupVersionKind gvk, ObjectFilter filter, std::optional<steady::time_point> deadline)
    : gvk_(std::move(gvk)), filter_(std::move(filter)), deadline_(deadline) {}

void WatchChannel::offer(const Event& event) {
  if (event.gvk != gvk_) return;
  const bool now_matches = filter_.matches(event.object);
  const bool matched_before = !event.previous.is_null() && filter_.matches(event.previous);
  switch (event.type) {
    case WatchEventType::Added:
    case WatchEventType::Deleted:
      if (now_matches) push({event.type, event.object});
      return;
    case WatchEventType::Modified:
      if (now_matches) {
        push({matched_before ? WatchEventType::Modified : WatchEventType::Added, event.object});
      } else if (matched_before) {
        // As the API server's watch cache: the content it last matched with, at the new version.
        Json gone = event.previous;
        set_meta(gone, "resourceVersion", meta_string(event.object, "resourceVersion"));
        push({WatchEventType::Deleted, std::move(gone)});
      }
      return;
    case WatchEventType::Bookmark:
    case WatchEventType::Error:
      push({event.type, event.object});
      return;
  }
}

void WatchChannel::push(WatchEvent event) {
  {
    std::lock_guard lock(mutex_);
    if (stopped_ || end_after_queued_) return;
    queue_.push_back(std::move(event));
  }
  ready_.notify_all();
}

void WatchChannel::end_after_queued() {
  {
    std::lock_guard lock(mutex_);
    end_after_queued_ = true;
  }
  ready_.notify_all();
}

bool WatchChannel::ended_locked() const {
  if (stopped_) return true;
  if (!queue_.empty()) return false;
  return end_after_queued_ || (deadline_ && steady::now() >= *deadline_);
}

std::optional<WatchEvent> WatchChannel::next(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  auto until = steady::now() + timeout;
  if (deadline_ && *deadline_ < until) until = *deadline_;
  ready_.wait_until(lock, until, [&] { return !queue_.empty() || ended_locked(); });
  if (stopped_ || queue_.empty()) {
    if (ended_locked()) stopped_ = true;
    return std::nullopt;
  }
  WatchEvent event = std::move(queue_.front());
  queue_.pop_front();
  return event;
}

void WatchChannel::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    queue_.clear();
  }
  ready_.notify_all();
}

bool WatchChannel::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_ || ended_locked();
}

}  // namespace rr::cluster_detail
