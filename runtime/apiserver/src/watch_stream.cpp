#include "watch_stream.hpp"

#include "http_types.hpp"

namespace rr::apiserver_detail {

WatchStream::WatchStream(std::unique_ptr<Watch> watch, FaultInjector& faults, const std::atomic<bool>& stopping,
                         std::function<WatchEvent(WatchEvent)> transform)
    : watch_(std::move(watch)), faults_(faults), stopping_(stopping), transform_(std::move(transform)) {}

WatchStream::~WatchStream() { watch_->stop(); }

void WatchStream::stop() { watch_->stop(); }

WatchStream::Step WatchStream::step(std::string& out, std::chrono::milliseconds wait) {
  if (stopping_) return Step::Done;
  auto event = watch_->next(wait);
  if (event) {
    idle_ = std::chrono::milliseconds(0);
    out += watch_event_line(transform_ ? transform_(std::move(*event)) : *event);
    ++sent_;
    return faults_.drop_after_event(sent_) ? Step::Cut : Step::Continue;
  }
  if (stopping_ || watch_->stopped()) return Step::Done;
  idle_ += wait;
  if (idle_ >= std::chrono::seconds(1)) {
    idle_ = std::chrono::milliseconds(0);
    if (faults_.drop_when_idle()) return Step::Cut;
  }
  return Step::Continue;
}

}  // namespace rr::apiserver_detail
