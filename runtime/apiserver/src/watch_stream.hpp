// Feeds a watch's events to a chunked HTTP response in small steps, so the writer thread can
// notice the server stopping; applies the stream-cutting faults.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "faults.hpp"
#include "rr/client/watch.hpp"

namespace rr::apiserver_detail {

class WatchStream {
 public:
  enum class Step { Continue, Done, Cut };

  // `transform` (may be empty) rewrites each event before it is written.
  WatchStream(std::unique_ptr<Watch> watch, FaultInjector& faults, const std::atomic<bool>& stopping,
              std::function<WatchEvent(WatchEvent)> transform = {});
  ~WatchStream();

  // Waits up to `wait` for the next event and appends its line to `out`. Done: the stream ended
  // (timeoutSeconds, an ERROR event, server stopping); Cut: an injected drop, to end abruptly
  // after writing `out`.
  Step step(std::string& out, std::chrono::milliseconds wait);
  void stop();

 private:
  std::unique_ptr<Watch> watch_;
  FaultInjector& faults_;
  const std::atomic<bool>& stopping_;
  std::function<WatchEvent(WatchEvent)> transform_;
  std::uint64_t sent_ = 0;
  std::chrono::milliseconds idle_{0};
};

}  // namespace rr::apiserver_detail
