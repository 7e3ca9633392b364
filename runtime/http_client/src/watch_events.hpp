// The body of a watch response: newline-delimited JSON {"type":..., "object":...} events, fed in
// arbitrary pieces (HTTP chunks do not follow event boundaries), queued for rr::Watch::next().
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "rr/client/watch.hpp"

namespace rr::http_detail {

// One decoded line: an event, or an ERROR event carrying a 500 Status when the line is not an
// event (the stream ends after it).
struct DecodedEvent {
  WatchEvent event;
  bool malformed = false;
};
DecodedEvent decode_event(std::string_view line);

class WatchEventQueue {
 public:
  // Events decoded and not yet taken, beyond which feed() waits for next(): a consumer slower than
  // the network (an informer's initial events: 100,000 in a row) would otherwise hold every
  // event's DOM at once. The wait holds up the transfer, so the server's side waits too.
  static constexpr std::size_t default_max_queued = 128;
  explicit WatchEventQueue(std::size_t max_queued = default_max_queued) : max_queued_(max_queued) {}

  // Appends received bytes; complete lines become events. Waits while max_queued events are
  // queued. Returns false once the stream must end (a malformed event, or stop()).
  bool feed(std::string_view bytes);
  // The transfer is over: a last unterminated line is decoded, then next() drains and ends.
  void finish();
  std::optional<WatchEvent> next(std::chrono::milliseconds timeout);
  void stop();
  bool stopped() const;
  bool stop_requested() const;
  // Whether feed() waits while the queue is full (default true). Off while the consumer's own
  // thread feeds the queue (HttpWatch::open reads the first bytes on the caller's thread): it
  // would wait for itself.
  void hold_when_full(bool hold);

 private:
  bool push_line_locked(std::string_view line);

  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::condition_variable space_;  // next() took an event, or stop()
  const std::size_t max_queued_;
  std::deque<WatchEvent> queue_;
  std::string partial_;
  bool finished_ = false;
  bool stopped_ = false;
  bool hold_when_full_ = true;
};

}  // namespace rr::http_detail
