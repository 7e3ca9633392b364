// One watch stream's queue. The store offers every event to every live channel under the cluster
// mutex; the channel keeps those of its kind that pass its filter. The consumer blocks on the
// channel's own mutex and condition variable, never on the cluster's.
#pragma once
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

#include "object_filter.hpp"
#include "rr/client/watch.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

class WatchChannel {
 public:
  using steady = std::chrono::steady_clock;
  WatchChannel(GroupVersionKind gvk, ObjectFilter filter, std::optional<steady::time_point> deadline);

  // Queues what this watcher sees of `event`: events an object leaves the filter with become
  // DELETED (with the previous content), events it enters it with become ADDED.
  void offer(const Event& event);
  void push(WatchEvent event);
  // The stream ends once the queued events are consumed (after an ERROR event).
  void end_after_queued();

  std::optional<WatchEvent> next(std::chrono::milliseconds timeout);
  void stop();
  bool stopped() const;

 private:
  bool ended_locked() const;

  const GroupVersionKind gvk_;
  const ObjectFilter filter_;
  const std::optional<steady::time_point> deadline_;
  mutable std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<WatchEvent> queue_;
  bool stopped_ = false;
  bool end_after_queued_ = false;
};

// The rr::Watch handed to clients; stops its channel when dropped so the store forgets it.
class ClusterWatch : public Watch {
 public:
  explicit ClusterWatch(std::shared_ptr<WatchChannel> channel) : channel_(std::move(channel)) {}
  ~ClusterWatch() override { channel_->stop(); }
  std::optional<WatchEvent> next(std::chrono::milliseconds timeout) override { return channel_->next(timeout); }
  void stop() override { channel_->stop(); }
  bool stopped() const override { return channel_->stopped(); }

 private:
  std::shared_ptr<WatchChannel> channel_;
};

}  // namespace rr::cluster_detail
