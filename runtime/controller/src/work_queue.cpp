#include "rr/controller/work_queue.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "object_key_hash.hpp"

namespace rr {

using time_point = Clock::time_point;

namespace {
double as_seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
}  // namespace

// Mirrors client-go's queue: the ready keys, the `dirty` map (keys that need processing, with
// their priority) and the `processing` set (keys handed out and not yet done); plus the delaying
// queue's heap of waiting keys. The ready keys are ordered by priority, then by when they were
// queued (one FIFO when every priority is 0). There is no timer thread: due keys become ready
// whenever the queue is used, when a get() wakes at the earliest deadline, or when a fake clock
// advances.
struct WorkQueue::State {
  Clock& clock;
  std::unique_ptr<RateLimiter> limiter;
  std::shared_ptr<WorkQueueMetrics> metrics;
  const bool priorities;

  struct Rank {
    int priority = 0;
    std::uint64_t seq = 0;  // queue order within a priority
  };
  struct Ready {
    Rank rank;
    ObjectKey key;
  };
  struct HighestFirst {
    bool operator()(const Ready& a, const Ready& b) const {
      if (a.rank.priority != b.rank.priority) return a.rank.priority > b.rank.priority;
      return a.rank.seq < b.rank.seq;
    }
  };

  std::mutex mutex;
  std::condition_variable items_cv;    // get() waits here
  std::condition_variable drained_cv;  // shut_down_with_drain() waits here
  std::set<Ready, HighestFirst> ready;  // dirty keys not being processed
  std::unordered_map<ObjectKey, Rank, ObjectKeyHash> dirty;
  std::unordered_map<ObjectKey, time_point, ObjectKeyHash> processing;  // key -> when get() handed it out
  std::unordered_map<ObjectKey, time_point, ObjectKeyHash> dirty_since;  // for the queue latency metric
  std::uint64_t next_seq = 0;
  // Ready time -> key; a multimap keeps keys with the same ready time in the order they were added.
  struct Delayed {
    ObjectKey key;
    int priority = 0;
  };
  using Waiting = std::multimap<time_point, Delayed>;
  Waiting waiting;
  std::unordered_map<ObjectKey, Waiting::iterator, ObjectKeyHash> waiting_by_key;
  bool shutting_down = false;

  State(Clock& c, std::unique_ptr<RateLimiter> l, std::shared_ptr<WorkQueueMetrics> m, bool p)
      : clock(c), limiter(std::move(l)), metrics(std::move(m)), priorities(p) {}

  // workqueue_depth: per priority with priorities, else the number of dirty keys.
  void depth_changed(int priority, int delta) {
    if (priorities) {
      metrics->change_depth(priority, delta);
    } else {
      metrics->set_depth(dirty.size());
    }
  }

  void add_locked(const ObjectKey& key, int priority, time_point now) {
    if (shutting_down) return;
    if (!priorities) priority = 0;
    if (auto found = dirty.find(key); found != dirty.end()) {
      const Rank old = found->second;
      if (priority <= old.priority) return;
      // Raised: behind the keys already queued at the new priority, as controller-runtime.
      found->second = Rank{priority, next_seq++};
      if (ready.erase(Ready{old, key}) > 0) ready.insert(Ready{found->second, key});
      depth_changed(old.priority, -1);
      depth_changed(priority, +1);
      return;
    }
    const Rank rank{priority, next_seq++};
    dirty.emplace(key, rank);
    dirty_since.try_emplace(key, now);
    metrics->add();
    depth_changed(priority, +1);
    if (processing.contains(key)) return;  // done() queues it again
    ready.insert(Ready{rank, key});
    items_cv.notify_one();
  }

  void promote_due_locked(time_point now) {
    while (!waiting.empty() && waiting.begin()->first <= now) {
      Delayed due = std::move(waiting.begin()->second);
      waiting.erase(waiting.begin());
      waiting_by_key.erase(due.key);
      add_locked(due.key, due.priority, now);
    }
  }

  void stop_locked() {
    shutting_down = true;
    waiting.clear();
    waiting_by_key.clear();
    items_cv.notify_all();
  }
};

WorkQueue::WorkQueue(WorkQueueOptions options) {
  Clock& clock = options.clock ? *options.clock : Clock::real();
  auto limiter = options.rate_limiter ? std::move(options.rate_limiter) : make_default_controller_rate_limiter(clock);
  auto metrics = options.metrics ? std::move(options.metrics) : std::make_shared<WorkQueueMetrics>();
  state_ = std::make_unique<State>(clock, std::move(limiter), std::move(metrics), options.priorities);
  State* state = state_.get();
  clock.add_waker(state, [state] {
    std::lock_guard guard(state->mutex);
    state->promote_due_locked(state->clock.now());
    state->items_cv.notify_all();  // getters re-check their deadline
  });
}

WorkQueue::~WorkQueue() { state_->clock.remove_waker(state_.get()); }

void WorkQueue::add(const ObjectKey& key, int priority) {
  std::lock_guard guard(state_->mutex);
  state_->add_locked(key, priority, state_->clock.now());
}

void WorkQueue::add_after(const ObjectKey& key, Clock::duration delay, int priority) {
  State& s = *state_;
  std::lock_guard guard(s.mutex);
  if (s.shutting_down) return;
  s.metrics->retry();  // client-go counts every AddAfter as a retry
  const time_point now = s.clock.now();
  if (delay <= Clock::duration::zero()) {
    s.add_locked(key, priority, now);
    return;
  }
  const time_point ready = now + delay;
  if (auto found = s.waiting_by_key.find(key); found != s.waiting_by_key.end()) {
    int& waiting_priority = found->second->second.priority;
    if (found->second->first <= ready) {  // the earlier ready time wins, and the higher priority
      waiting_priority = std::max(waiting_priority, priority);
      return;
    }
    priority = std::max(priority, waiting_priority);
    s.waiting.erase(found->second);
    s.waiting_by_key.erase(found);
  }
  auto it = s.waiting.emplace(ready, State::Delayed{key, priority});
  s.waiting_by_key.emplace(key, it);
  if (it == s.waiting.begin()) s.items_cv.notify_all();  // a new earliest deadline for waiting getters
}

void WorkQueue::add_rate_limited(const ObjectKey& key, int priority) {
  add_after(key, state_->limiter->when(key), priority);
}

void WorkQueue::forget(const ObjectKey& key) { state_->limiter->forget(key); }

int WorkQueue::num_requeues(const ObjectKey& key) { return state_->limiter->num_requeues(key); }

std::optional<ObjectKey> WorkQueue::get() {
  auto item = get_with_priority();
  if (!item) return std::nullopt;
  return std::move(item->key);
}

std::optional<WorkQueue::Item> WorkQueue::get_with_priority() {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  time_point now = s.clock.now();
  for (;;) {
    s.promote_due_locked(now);
    if (!s.ready.empty()) break;
    if (s.shutting_down) return std::nullopt;
    if (s.waiting.empty()) {
      s.items_cv.wait(lock);
    } else {
      s.clock.wait_until(s.items_cv, lock, s.waiting.begin()->first);
    }
    now = s.clock.now();
  }
  auto node = s.ready.extract(s.ready.begin());
  ObjectKey key = std::move(node.value().key);
  const int priority = node.value().rank.priority;
  s.dirty.erase(key);
  s.processing.emplace(key, now);
  s.depth_changed(priority, -1);
  if (auto since = s.dirty_since.find(key); since != s.dirty_since.end()) {
    s.metrics->observe_queue_latency(as_seconds(now - since->second));
    s.dirty_since.erase(since);
  }
  return Item{std::move(key), priority};
}

void WorkQueue::done(const ObjectKey& key) {
  State& s = *state_;
  std::lock_guard guard(s.mutex);
  auto it = s.processing.find(key);
  if (it == s.processing.end()) return;  // not handed out: nothing to finish (as client-go)
  s.metrics->observe_work_duration(as_seconds(s.clock.now() - it->second));
  s.processing.erase(it);
  if (auto dirty = s.dirty.find(key); dirty != s.dirty.end()) {
    // Re-added while it was processed: queued again even after shutdown, as client-go.
    s.ready.insert(State::Ready{dirty->second, key});
    s.items_cv.notify_one();
  }
  if (s.processing.empty()) s.drained_cv.notify_all();
}

std::size_t WorkQueue::len() {
  std::lock_guard guard(state_->mutex);
  state_->promote_due_locked(state_->clock.now());
  return state_->ready.size();
}

void WorkQueue::shut_down() {
  std::lock_guard guard(state_->mutex);
  state_->stop_locked();
}

void WorkQueue::shut_down_with_drain() {
  State& s = *state_;
  std::unique_lock lock(s.mutex);
  s.stop_locked();
  s.drained_cv.wait(lock, [&] { return s.processing.empty(); });
}

bool WorkQueue::shutting_down() {
  std::lock_guard guard(state_->mutex);
  return state_->shutting_down;
}

void WorkQueue::update_unfinished_work() {
  State& s = *state_;
  std::lock_guard guard(s.mutex);
  const time_point now = s.clock.now();
  double total = 0, longest = 0;
  for (const auto& [key, started] : s.processing) {
    const double running = as_seconds(now - started);
    total += running;
    longest = std::max(longest, running);
  }
  s.metrics->set_unfinished_work(total);
  s.metrics->set_longest_running_processor(longest);
}

}  // namespace rr
