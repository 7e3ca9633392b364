// SuppressTransientErrors<T>: keeps an error off the status until it has repeated.
//
// Errors of the nested reconciler that are not err_durable() are counted per resource (UID) and
// generation, in memory. While the count is below `threshold` (default 3) the error is returned
// joined with err_skip_status_update() and err_quiet(): no status write, no error log, a silent
// rate-limited requeue. From the threshold on the error passes as it is. Success, an
// err_durable() error or a new generation starts the count again. Once a day the counters of
// resources that no longer exist (a List of T through the current config) are dropped.
#pragma once
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "rr/client/client.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

// The counters one SuppressTransientErrors keeps across requests (shared by its copies).
class TransientErrorCounters {
 public:
  // Counts one more error of (uid, generation); returns the count (capped at `cap`).
  int count_error(const std::string& uid, std::int64_t generation, int cap) {
    std::lock_guard lock(mutex_);
    Counter& c = counters_[uid];
    if (c.generation != generation) c = Counter{generation, 0};
    if (c.count < cap) ++c.count;
    return c.count;
  }
  void reset(const std::string& uid) {
    std::lock_guard lock(mutex_);
    counters_.erase(uid);
  }
  // True (and the clock restarts) when a day has passed since the last purge; the first call
  // only starts the clock.
  bool purge_due(std::chrono::system_clock::time_point now) {
    std::lock_guard lock(mutex_);
    if (!last_purge_) {
      last_purge_ = now;
      return false;
    }
    if (now < *last_purge_ + std::chrono::hours(24)) return false;
    return true;
  }
  void keep_only(const std::set<std::string>& live_uids, std::chrono::system_clock::time_point now) {
    std::lock_guard lock(mutex_);
    std::erase_if(counters_, [&](const auto& entry) { return live_uids.count(entry.first) == 0; });
    last_purge_ = now;
  }
  std::size_t size() const {
    std::lock_guard lock(mutex_);
    return counters_.size();
  }

 private:
  struct Counter {
    std::int64_t generation = 0;
    int count = 0;
  };
  mutable std::mutex mutex_;
  std::map<std::string, Counter> counters_;
  std::optional<std::chrono::system_clock::time_point> last_purge_;
};

template <Object T>
struct SuppressTransientErrors {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  int threshold = 3;
  SubReconciler<T> reconciler{};
  // State across requests; copies of this reconciler share it.
  std::shared_ptr<TransientErrorCounters> counters = std::make_shared<TransientErrorCounters>();

  std::string display_name() const { return name.empty() ? "SuppressTransientErrors" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    Outcome out = reconciler.reconcile(ctx, resource);
    classify(resource, out);
    purge_stale_counters(ctx);
    return out;
  }

  void validate(Validation& v) const {
    if (!reconciler) v.fail("SuppressTransientErrors must implement reconciler");
    if (threshold < 1) v.fail("SuppressTransientErrors threshold must be at least 1");
    if (!counters) v.fail("SuppressTransientErrors must have counters");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const {
    reconciler.setup(s);
    if (on_setup) on_setup(s);
  }

 private:
  void classify(const T& resource, Outcome& out) const {
    const std::string& uid = resource.metadata.uid;
    if (!out.error || out.error.is(err_durable())) {
      counters->reset(uid);
      return;
    }
    if (counters->count_error(uid, resource.metadata.generation, threshold) < threshold) {
      out.error = Error::join({std::move(out.error), err_skip_status_update(), err_quiet()});
    }
  }

  void purge_stale_counters(Context& ctx) const {
    if (!counters->purge_due(ctx.now())) return;
    ctx.log().info("purging stale resource counters");
    std::set<std::string> live;
    Error failed = call_hook([&] {
      for (const T& item : ctx.config().api().template list<T>()) live.insert(item.metadata.uid);
      return Error{};
    });
    if (failed) {
      ctx.log().error(failed, "purge failed to list resources");
      return;
    }
    counters->keep_only(live, ctx.now());
  }
};

}  // namespace rr
