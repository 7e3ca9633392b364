#include "watch_events.hpp"

#include "rr/client/api_error.hpp"

namespace rr::http_detail {
namespace {

std::optional<WatchEventType> event_type(std::string_view name) {
  if (name == "ADDED") return WatchEventType::Added;
  if (name == "MODIFIED") return WatchEventType::Modified;
  if (name == "DELETED") return WatchEventType::Deleted;
  if (name == "BOOKMARK") return WatchEventType::Bookmark;
  if (name == "ERROR") return WatchEventType::Error;
  return std::nullopt;
}

DecodedEvent malformed(std::string_view why) {
  Status s;
  s.code = 500;
  s.reason = "InternalError";
  s.message = "unable to decode an event from the watch stream: " + std::string(why);
  return {{WatchEventType::Error, s.to_json()}, true};
}

}  // namespace

DecodedEvent decode_event(std::string_view line) {
  Json parsed = Json::parse(line.begin(), line.end(), nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return malformed("not a JSON object");
  const auto type = parsed.find("type");
  const auto object = parsed.find("object");
  if (type == parsed.end() || !type->is_string() || object == parsed.end() || !object->is_object()) {
    return malformed("an event needs a type and an object");
  }
  const auto kind = event_type(type->get<std::string>());
  if (!kind) return malformed("unknown event type \"" + type->get<std::string>() + "\"");
  return {{*kind, std::move(*object)}, false};
}

bool WatchEventQueue::push_line_locked(std::string_view line) {
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
  if (line.empty()) return true;
  DecodedEvent decoded = decode_event(line);
  queue_.push_back(std::move(decoded.event));
  if (decoded.malformed) finished_ = true;
  return !decoded.malformed;
}

bool WatchEventQueue::feed(std::string_view bytes) {
  bool go_on = true;
  {
    std::unique_lock lock(mutex_);
    space_.wait(lock, [&] { return stopped_ || !hold_when_full_ || queue_.size() < max_queued_; });
    if (stopped_ || finished_) return false;
    partial_.append(bytes);
    std::size_t start = 0;
    for (std::size_t nl = partial_.find('\n'); nl != std::string::npos; nl = partial_.find('\n', start)) {
      go_on = push_line_locked(std::string_view(partial_).substr(start, nl - start));
      start = nl + 1;
      if (!go_on) break;
    }
    partial_.erase(0, start);
  }
  ready_.notify_all();
  return go_on;
}

void WatchEventQueue::finish() {
  {
    std::lock_guard lock(mutex_);
    if (!finished_ && !stopped_) push_line_locked(partial_);
    partial_.clear();
    finished_ = true;
  }
  ready_.notify_all();
}

std::optional<WatchEvent> WatchEventQueue::next(std::chrono::milliseconds timeout) {
  std::unique_lock lock(mutex_);
  ready_.wait_for(lock, timeout, [&] { return stopped_ || finished_ || !queue_.empty(); });
  if (stopped_ || queue_.empty()) return std::nullopt;
  WatchEvent event = std::move(queue_.front());
  queue_.pop_front();
  lock.unlock();
  space_.notify_one();
  return event;
}

void WatchEventQueue::stop() {
  {
    std::lock_guard lock(mutex_);
    stopped_ = true;
    queue_.clear();
  }
  ready_.notify_all();
  space_.notify_all();
}

void WatchEventQueue::hold_when_full(bool hold) {
  {
    std::lock_guard lock(mutex_);
    hold_when_full_ = hold;
  }
  space_.notify_all();
}

bool WatchEventQueue::stopped() const {
  std::lock_guard lock(mutex_);
  return stopped_ || (finished_ && queue_.empty());
}

bool WatchEventQueue::stop_requested() const {
  std::lock_guard lock(mutex_);
  return stopped_;
}

}  // namespace rr::http_detail
